/**
 * @module console/pages/playground
 * The playground: a tree's JSON (and its action table) beside the card it draws, checked by the
 * service's validator (`POST /v0/apps/check/trees`), whose message is pinned to the node at fault
 * in the drawing. The same renderer draws it as the console's cards and `platform dev` do.
 */
import type { Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import { renderTree, ui } from '@platform/sandbox-lib';
import { renderBlock } from '@platform/sandbox-lib/render';
import { messageOf } from '../api.ts';
import type { Assets } from '../assets.ts';
import type { ConsoleEnv } from '../env.ts';
import { page } from '../layout.ts';

const SAMPLE = renderTree(ui.block({ summary: 'Deploy #42 is waiting for approval' }, [
  ui.header({ title: 'Deploy #42', trailing: '2 min ago' }, [ui.status({ label: 'Waiting', tone: 'warning' })]),
  ui.metrics([ui.metric({ label: 'Error rate', value: 0.004, format: 'percent', delta: { value: -0.002, tone: 'positive' }, trend: [0.01, 0.008, 0.006, 0.004] })]),
  ui.progress({ value: 3, max: 5, unit: 'checks', label: 'Checks' }),
  ui.section({ title: 'Changes', handle: 'changes', collapsed: true }, [ui.text(['Fixes the ', ui.code('checkout'), ' timeout'])]),
  ui.actions([ui.button({ label: 'Approve', action: 'approve', intent: 'primary' }), ui.toggleButton({ label: 'Show changes', target: 'changes' })]),
]));

interface Input { tree: string; actions: string }

/** `/console/playground`, or an app's (`/console/apps/{id}/playground`, the URL `platform dev` prints). */
const actionOf = (c: Context<ConsoleEnv>) => {
  const appId = c.req.param('appId');
  return appId === undefined ? '/console/playground' : `/console/apps/${encodeURIComponent(appId)}/playground`;
};

async function show(c: Context<ConsoleEnv>, assets: Assets, input: Input) {
  let problem: { message: string; path: Array<string | number> } | null = null;
  let parsed: unknown = null;
  let note = '';
  try {
    parsed = JSON.parse(input.tree);
    const actions = input.actions.trim() === '' ? undefined : JSON.parse(input.actions) as unknown;
    const checked = await c.get('api').v0.post<{ valid: boolean; message?: string; path?: Array<string | number> }>('/apps/check/trees', { tree: parsed, ...(actions === undefined ? {} : { actions }) });
    if (checked.status !== 200) note = messageOf(checked);
    else if (!checked.body.valid) problem = { message: checked.body.message ?? 'Invalid', path: checked.body.path ?? [] };
  } catch (err) {
    note = `Not JSON: ${(err as Error).message}`;
  }
  const verdict = note !== '' ? html`<p class="flash flash-danger" role="alert">${note}</p>`
    : problem === null ? html`<p class="flash flash-success" role="status">Valid: apps can send this tree.</p>`
      : html`<div class="flash flash-danger" role="alert"><p>${problem.message}</p><p class="muted">at <code>${problem.path.join(' › ') || '(root)'}</code></p></div>`;
  const drawing = typeof parsed === 'object' && parsed !== null ? raw(renderBlock(parsed, { idPrefix: 'playground', problem })) : '';
  const body = html`<div class="columns"><form method="post" action="${actionOf(c)}" class="stack playground-form">
      <label for="tree">Tree (catalog 1 JSON)</label><textarea id="tree" name="tree" rows="22" spellcheck="false" class="code">${input.tree}</textarea>
      <label for="actions">Action table (optional)</label><textarea id="actions" name="actions" rows="4" spellcheck="false" class="code">${input.actions}</textarea>
      <button type="submit" class="primary">Check and draw</button></form>
    <section aria-labelledby="drawn" class="playground-out"><h2 id="drawn">As members see it</h2>${verdict}<div class="card">${drawing}</div>
      <p class="muted">Buttons here are not sent anywhere: insert the block from a development install (<code>platform dev</code>) to run its actions.</p></section></div>`;
  return c.html(page(assets, { title: 'Playground', section: 'author', me: c.get('me'), body }), note === '' && problem === null ? 200 : 422);
}

export function registerPlaygroundPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  for (const path of ['/playground', '/apps/:appId/playground']) {
    router.get(path, (c) => show(c, assets, { tree: JSON.stringify(SAMPLE.tree, null, 2), actions: JSON.stringify(SAMPLE.actions, null, 2) }));
    router.post(path, async (c) => {
      const fields = await c.req.parseBody();
      return show(c, assets, { tree: typeof fields.tree === 'string' ? fields.tree : '', actions: typeof fields.actions === 'string' ? fields.actions : '' });
    });
  }
}
