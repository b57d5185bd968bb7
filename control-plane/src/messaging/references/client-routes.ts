/**
 * @module messaging/references/client-routes
 * Link cards for members (messaging/references/links.ts): a message's cards, read on demand, and a preview
 * of up to 20 URLs pasted in a composer.
 */
import { LIMITS } from '@platform/sdk';
import type { ClientApi } from '../../core/http/client-api.ts';
import type { MemberLinks } from './links.ts';
import { ReferenceSearchAnswer, ReferenceSearchQuery, type ReferenceSearch } from './search.ts';
import { LinkPreviews, PreviewLinksRequest } from './schemas.ts';
import { LinkCards } from './view.ts';

const L = LIMITS.references;
const failures = [{ status: 404, description: 'PlatformApiNotFoundError: no such message or circle you can see' }];

export function registerReferenceClientRoutes(api: ClientApi, references: { links: MemberLinks; search: ReferenceSearch }): void {
  api.route({
    operationId: 'listMessageReferences', method: 'get', path: '/messages/{messageId}/references', tag: 'references', auth: 'member', status: 200,
    summary: 'The link cards of a message: its links that installed apps claim, resolved',
    description: `At most ${L.urlsResolvedPerDelivery} cards, in the order the links appear. A link resolved before shows its stored record `
      + '(shared by every occurrence of the same object); others are resolved now (`reference.resolve`, 5 s). `unavailable` is not stored: '
      + 'reading again resolves it again. Direct messages have no cards.',
    response: LinkCards, errors: failures,
  }, async ({ auth, params }) => references.links.ofMessage(auth, params.messageId));

  api.route({
    operationId: 'previewLinks', method: 'post', path: '/references/preview', tag: 'references', auth: 'member', status: 200,
    summary: 'Preview link cards for URLs pasted in a composer',
    description: 'One entry per URL, in order: its card, or null when no app within reach claims it.',
    body: PreviewLinksRequest, maxBytes: 192 * 1024, response: LinkPreviews, errors: failures,
  }, async ({ auth, body }) => references.links.preview(auth, body));

  api.route({
    operationId: 'searchReferences', method: 'get', path: '/references/search', tag: 'references', auth: 'member', status: 200,
    summary: 'Search an installed app\'s reference kind',
    description: `Sends \`reference.search\` to the app (5 s) with you as actor and answers at most \`limit\` results (1 to ${LIMITS.references.searchResultsPerQuery}). `
      + 'When the app fails, times out or answers outside the rules, the answer is 200 with no items and an `error`.',
    query: ReferenceSearchQuery, response: ReferenceSearchAnswer,
    errors: [{ status: 404, description: 'PlatformApiNotFoundError: the app is not installed for you (`appId`), or has no searchable kind by that name (`kind`)' }],
  }, async ({ auth, query }) => references.search.search(auth, query));
}
