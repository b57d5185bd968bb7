/**
 * @module console/kit/link-cards
 * Link cards: the links of a message that installed apps claim, each with its record's title,
 * summary, status and block (`GET /client/v1/messages/{id}/references`). A click in a card's block
 * goes to `POST /client/v1/messages/{id}/references/{referenceId}/click` with the card's revision;
 * the card answered replaces the old one, as for app cards (cards.ts).
 */
import type { Hono } from 'hono';
import { esc, renderBlock, safeHref } from '@platform/sdk/render';
import { messageOf, type Api } from './api.ts';
import { assetUrl } from './asset-url.ts';
import type { Outcome } from './cards.ts';
import type { ConsoleEnv } from './env.ts';

export interface LinkCard {
  url: string;
  app: { name: string };
  access: string;
  reference: { id: string; title: string; summary: string; revision?: number; status?: { label: string }; block?: { tree: unknown } } | null;
}

/** One link card; its block's buttons post to the card route of this message. */
export function linkCardHtml(messageId: string, card: LinkCard, outcome: Outcome & { error?: { message: string } | null } = {}): string {
  const ref = card.reference;
  const href = safeHref(card.url);
  const title = esc(ref?.title || card.url);
  const meta = [card.app.name, ref?.status?.label, card.access === 'granted' ? undefined : card.access].filter((s) => s !== undefined && s !== '').join(' · ');
  const block = ref?.block === undefined ? '' : renderBlock(ref.block.tree, {
    idPrefix: `ref-${ref.id}`, blockId: ref.id, revision: ref.revision ?? 1, notice: outcome.notice ?? null,
    fieldErrors: outcome.fieldErrors ?? null, openUrl: outcome.openUrl ?? null, error: outcome.error ?? null, assetUrl, remoteImages: false,
  });
  const click = ref === null ? '' : ` data-reference-click="/console/messages/${esc(messageId)}/references/${esc(ref.id)}/click"`;
  return `<li class="reference card" data-card="ref-${esc(ref?.id ?? card.url)}"${click}><p>${href === null ? title : `<a href="${esc(href)}" rel="noopener noreferrer" target="_blank">${title}</a>`}`
    + ` <span class="muted">${esc(meta)}</span></p>${ref === null || ref.summary === '' ? '' : `<p class="muted">${esc(ref.summary)}</p>`}${block}</li>`;
}

/** The link cards of a message, or nothing. */
export async function linkCardsHtml(api: Api, messageId: string): Promise<string> {
  const got = await api.get<{ items: LinkCard[] }>(`/messages/${encodeURIComponent(messageId)}/references`);
  const items = got.status === 200 && Array.isArray(got.body?.items) ? got.body.items : [];
  return items.length === 0 ? '' : `<ul class="references" aria-label="Link cards">${items.map((c) => linkCardHtml(messageId, c)).join('')}</ul>`;
}

export function registerLinkCardRoutes(router: Hono<ConsoleEnv>): void {
  router.post('/messages/:messageId/references/:referenceId/click', async (c) => {
    const messageId = c.req.param('messageId');
    const body = await c.req.json().catch(() => null);
    if (body === null || typeof body !== 'object') return c.json({ _tag: 'ConsoleInvalidRequestError', message: 'Send a JSON object', path: [] }, 400);
    const got = await c.get('api').post(`/messages/${encodeURIComponent(messageId)}/references/${encodeURIComponent(c.req.param('referenceId'))}/click`, body);
    if (got.status !== 200) return c.json({ outcome: 'refused', error: { message: messageOf(got) } }, 200);
    const out = got.body as { outcome: string; card: LinkCard; notice: Outcome['notice']; fieldErrors: Outcome['fieldErrors']; openUrl: string | null; error: { message: string } | null };
    return c.json({ outcome: out.outcome, openUrl: out.openUrl, error: out.error, html: linkCardHtml(messageId, out.card, out) });
  });
}
