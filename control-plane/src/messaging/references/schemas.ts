/**
 * @module messaging/references/schemas
 * Wire shapes of the members' link previews (`POST /client/v1/references/preview`); the cards
 * themselves are in view.ts.
 */
import { z } from 'zod';
import { LIMITS } from '@platform/sdk';
import { Id } from '../../core/http/common.ts';
import { LinkCard } from './view.ts';

const L = LIMITS.references;
const Url = z.string().max(L.urlLength, `Keep this to ${L.urlLength} characters or fewer`).regex(/^https:\/\/\S+$/, 'Links are https:// URLs');

export const PreviewLinksRequest = z.strictObject({
  urls: z.array(Url).min(1).max(L.urlsResolvedPerDelivery).describe(`1 to ${L.urlsResolvedPerDelivery} https:// URLs of at most ${L.urlLength} characters`),
  circleId: Id.optional().describe('The circle the links are about to be posted in (the reach rule picks the apps); without it, workspace installs'),
});

/** One entry per URL, in order: its card, or null when no app within reach claims it. */
export const LinkPreviews = z.object({ items: z.array(LinkCard.nullable()) });
