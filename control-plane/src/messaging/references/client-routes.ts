/**
 * @module messaging/references/client-routes
 * Link cards for members (messaging/references/links.ts): a message's cards, read on demand, and a preview
 * of up to 20 URLs pasted in a composer.
 */
import { z } from 'zod';
import { LIMITS } from '@platform/sandbox-lib';
import type { ClientApi } from '../../core/http/client-api.ts';
import type { ClientServices } from '../../wiring/workspace.ts';
import { Id } from '../../core/http/common.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import type { Logger } from '../../core/log/logger.ts';
import { createMemberLinks } from './links.ts';
import { createReferenceResolver } from './resolve.ts';
import { registerReferenceSearchRoute } from './search.ts';
import { LinkCard, LinkCards } from './view.ts';

const L = LIMITS.references;
const Url = z.string().max(L.urlLength, `Keep this to ${L.urlLength} characters or fewer`).regex(/^https:\/\/\S+$/, 'Links are https:// URLs');

export const PreviewLinksRequest = z.strictObject({
  urls: z.array(Url).min(1).max(L.urlsResolvedPerDelivery).describe(`1 to ${L.urlsResolvedPerDelivery} https:// URLs of at most ${L.urlLength} characters`),
  circleId: Id.optional().describe('The circle the links are about to be posted in (the reach rule picks the apps); without it, workspace installs'),
});

const failures = [{ status: 404, description: 'PlatformApiNotFoundError: no such message or circle you can see' }];

export function registerReferenceClientRoutes(api: ClientApi, deps: { db: Db; clock: Clock; logger: Logger; services: ClientServices; engine: InteractiveEngine }): void {
  const resolver = createReferenceResolver(deps);
  const links = createMemberLinks({ db: deps.db, services: deps.services, resolver });

  api.route({
    operationId: 'listMessageReferences', method: 'get', path: '/messages/{messageId}/references', tag: 'references', auth: 'member', status: 200,
    summary: 'The link cards of a message: its links that installed apps claim, resolved',
    description: `At most ${L.urlsResolvedPerDelivery} cards, in the order the links appear. A link resolved before shows its stored record `
      + '(shared by every occurrence of the same object); others are resolved now (`reference.resolve`, 5 s). `unavailable` is not stored: '
      + 'reading again resolves it again. Direct messages have no cards.',
    response: LinkCards, errors: failures,
  }, async ({ auth, params }) => links.ofMessage(auth, params.messageId));

  api.route({
    operationId: 'previewLinks', method: 'post', path: '/references/preview', tag: 'references', auth: 'member', status: 200,
    summary: 'Preview link cards for URLs pasted in a composer',
    description: 'One entry per URL, in order: its card, or null when no app within reach claims it.',
    body: PreviewLinksRequest, maxBytes: 192 * 1024, response: z.object({ items: z.array(LinkCard.nullable()) }), errors: failures,
  }, async ({ auth, body }) => links.preview(auth, body));

  registerReferenceSearchRoute(api, deps);
}
