/**
 * @module console/kit/cards
 * App cards: a block as the client API shows the member (`GET /client/v1/blocks/{id}`), drawn by
 * the one renderer (`@platform/sdk/render`), and the four ways a member acts on it. The
 * client script posts a click, submit, change or search here; the console forwards it to the
 * client API unchanged and answers the card redrawn with the outcome (notice, field errors, link
 * to open, inline error), which the script swaps in place.
 */
import type { Hono } from 'hono';
import { esc, renderBlock } from '@platform/sdk/render';
import type { Api } from './api.ts';
import { messageOf } from './api.ts';
import { appIcon } from './app-icon.ts';
import { assetUrl } from './asset-url.ts';
import type { ConsoleEnv } from './env.ts';

export interface BlockView {
  id: string;
  app: { id: string; slug: string; name: string; icon?: string | null };
  revision: number;
  tree: unknown;
  summary: string;
  final: { summary: string } | null;
  pending: { ref: string } | null;
  error: { message: string } | null;
  openLink: { url: string } | null;
  inputs: Record<string, { tallies: Record<string, number>; mine: string[] }>;
}

export interface Outcome {
  notice?: { tone: 'neutral' | 'info' | 'success' | 'warning' | 'danger'; text: string } | null;
  fieldErrors?: Record<string, string> | null;
  openUrl?: string | null;
}

/** The card's markup: the app's name, then the block. The client script replaces `[data-card]` whole. */
export function cardHtml(view: BlockView, outcome: Outcome = {}): string {
  const block = renderBlock(view.tree, {
    idPrefix: `b-${view.id}`, blockId: view.id, revision: view.revision, pending: view.pending, error: view.error, final: view.final,
    inputs: view.inputs, fieldErrors: outcome.fieldErrors ?? null, notice: outcome.notice ?? null, openUrl: outcome.openUrl ?? view.openLink?.url ?? null,
    assetUrl, remoteImages: false,
  });
  const app = `<p class="card-app">${appIcon(view.app.icon)}${esc(view.app.name)}</p>`;
  return `<div class="card" data-card="${esc(view.id)}"${view.pending === null ? '' : ' data-pending="true"'}>${app}${block}</div>`;
}

/** A card that could not be read: said in words, in the card's place. */
export function missingCard(blockId: string, message: string): string {
  return `<div class="card card-missing" data-card="${esc(blockId)}"><p role="alert">${esc(message)}</p></div>`;
}

export async function loadCard(api: Api, blockId: string, outcome?: Outcome): Promise<string> {
  const got = await api.get<{ block: BlockView }>(`/blocks/${encodeURIComponent(blockId)}`);
  return got.status === 200 ? cardHtml(got.body.block, outcome) : missingCard(blockId, messageOf(got));
}

const VERBS = new Set(['click', 'submit', 'change']);

/** `POST /console/blocks/{id}/{click|submit|change|search}` and `GET /console/blocks/{id}` (polled while pending). */
export function registerCardRoutes(router: Hono<ConsoleEnv>): void {
  router.get('/blocks/:blockId', async (c) => {
    const api = c.get('api');
    const got = await api.get<{ block: BlockView }>(`/blocks/${encodeURIComponent(c.req.param('blockId'))}`);
    if (got.status !== 200) return c.json(got.body, got.status as 404);
    return c.json({ html: cardHtml(got.body.block), pending: got.body.block.pending !== null });
  });

  router.post('/blocks/:blockId/:verb', async (c) => {
    const api = c.get('api');
    const blockId = c.req.param('blockId');
    const verb = c.req.param('verb');
    const body = await c.req.json().catch(() => null);
    if (body === null || typeof body !== 'object') return c.json({ _tag: 'ConsoleInvalidRequestError', message: 'Send a JSON object', path: [] }, 400);
    if (verb === 'search') {
      const got = await api.post(`/blocks/${encodeURIComponent(blockId)}/search`, body);
      return c.json(got.body, got.status as 200);
    }
    if (!VERBS.has(verb)) return c.json({ _tag: 'ConsoleNotFoundError', message: 'No such card action', path: ['verb'] }, 404);
    const got = await api.post(`/blocks/${encodeURIComponent(blockId)}/${verb}`, body);
    if (got.status !== 200) {
      // A stale revision or a pending action: the card as it is now, with why nothing happened.
      const html = await loadCard(api, blockId, { notice: { tone: 'warning', text: messageOf(got) } });
      return c.json({ outcome: 'refused', html, error: { message: messageOf(got) } }, 200);
    }
    const out = got.body as { outcome: string; block: BlockView; notice: Outcome['notice']; fieldErrors: Outcome['fieldErrors']; openUrl: string | null; error: { message: string } | null };
    return c.json({
      outcome: out.outcome, pending: out.block.pending !== null, openUrl: out.openUrl, error: out.error,
      html: cardHtml(out.block, { notice: out.notice, fieldErrors: out.fieldErrors, openUrl: out.openUrl }),
    });
  });
}
