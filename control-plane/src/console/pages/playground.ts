/**
 * @module console/pages/playground
 * The playground: a tree's JSON (and its action table) beside the card it draws, checked by the
 * service's validator (`POST /v0/apps/check/trees`), whose message is pinned to the node at fault
 * in the drawing. The same renderer draws it as the console's cards and `platform dev` do. "Try"
 * posts it as a block of one of the author's development installs, whose buttons run the app's
 * own handler (playground-try.ts).
 */
import type { Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import { renderTree, ui } from '@platform/sdk';
import { renderBlock } from '@platform/sdk/render';
import { messageOf } from '../api.ts';
import type { Assets } from '../assets.ts';
import type { ConsoleEnv } from '../env.ts';
import { page } from '../layout.ts';
import { tryChoices, tryFields, tryTree, type TryInput } from './playground-try.ts';

const SAMPLE = renderTree(ui.block({ summary: 'Deploy #42 is waiting for approval' }, [
  ui.header({ title: 'Deploy #42', trailing: '2 min ago' }, [ui.status({ label: 'Waiting', tone: 'warning' })]),
  ui.metrics([ui.metric({ label: 'Error rate', value: 0.004, format: 'percent', delta: { value: -0.002, tone: 'positive' }, trend: [0.01, 0.008, 0.006, 0.004] })]),
  ui.progress({ value: 3, max: 5, unit: 'checks', label: 'Checks' }),
  ui.section({ title: 'Changes', handle: 'changes', collapsed: true }, [ui.text(['Fixes the ', ui.code('checkout'), ' timeout'])]),
  ui.actions([ui.button({ label: 'Approve', action: 'approve', intent: 'primary' }), ui.toggleButton({ label: 'Show changes', target: 'changes' })]),
]));

interface Input extends TryInput { tree: string; actions: string }

const EMPTY_TRY: TryInput = { block: '', place: '', props: '{}', state: '{}' };

/** `/console/playground`, or an app's (`/console/apps/{id}/playground`, the URL `platform dev` prints). */
const actionOf = (c: Context<ConsoleEnv>) => {
  const appId = c.req.param('appId');
  return appId === undefined ? '/console/playground' : `/console/apps/${encodeURIComponent(appId)}/playground`;
};

interface Checked { parsed: unknown; actions: unknown; problem: { message: string; path: Array<string | number> } | null; note: string }

/** The tree parsed and checked by the service's validator (`POST /v0/apps/check/trees`). */
async function check(c: Context<ConsoleEnv>, input: Input): Promise<Checked> {
  const out: Checked = { parsed: null, actions: undefined, problem: null, note: '' };
  try {
    out.parsed = JSON.parse(input.tree);
    out.actions = input.actions.trim() === '' ? undefined : JSON.parse(input.actions) as unknown;
    const checked = await c.get('api').v0.post<{ valid: boolean; message?: string; path?: Array<string | number> }>('/apps/check/trees', { tree: out.parsed, ...(out.actions === undefined ? {} : { actions: out.actions }) });
    if (checked.status !== 200) out.note = messageOf(checked);
    else if (!checked.body.valid) out.problem = { message: checked.body.message ?? 'Invalid', path: checked.body.path ?? [] };
  } catch (err) {
    out.note = `Not JSON: ${(err as Error).message}`;
  }
  return out;
}

/** The page; `trying` asks to post the tree as a live card of the chosen dev install (when it checked valid). */
async function show(c: Context<ConsoleEnv>, assets: Assets, input: Input, trying = false) {
  const api = c.get('api');
  const [checked, choices] = await Promise.all([check(c, input), tryChoices(api, c.get('me'))]);
  const { problem, note, parsed } = checked;
  const verdict = note !== '' ? html`<p class="flash flash-danger" role="alert">${note}</p>`
    : problem === null ? html`<p class="flash flash-success" role="status">Valid: apps can send this tree.</p>`
      : html`<div class="flash flash-danger" role="alert"><p>${problem.message}</p><p class="muted">at <code>${problem.path.join(' › ') || '(root)'}</code></p></div>`;
  const drawing = typeof parsed === 'object' && parsed !== null ? raw(renderBlock(parsed, { idPrefix: 'playground', problem })) : '';
  const tried = !trying ? { ok: true, markup: '' } : note === '' && problem === null ? await tryTree(api, choices, { ...input, tree: parsed, actions: checked.actions })
    : { ok: false, markup: html`<p class="flash flash-danger" role="alert">Not tried: fix the tree first.</p>` };
  const body = html`<div class="columns"><form method="post" action="${actionOf(c)}" class="stack playground-form">
      <label for="tree">Tree (catalog 1 JSON)</label><textarea id="tree" name="tree" rows="22" spellcheck="false" class="code">${input.tree}</textarea>
      <label for="actions">Action table (optional)</label><textarea id="actions" name="actions" rows="4" spellcheck="false" class="code">${input.actions}</textarea>
      <button type="submit" class="primary">Check and draw</button>
      ${tryFields(choices, input, actionOf(c), c.req.param('appId'))}</form>
    <div class="stack"><section aria-labelledby="drawn" class="playground-out"><h2 id="drawn">As members see it</h2>${verdict}<div class="card">${drawing}</div>
      <p class="muted">Buttons in this drawing are not sent anywhere: "Try" posts the tree as a block of your development install, whose buttons are.</p></section>
    ${tried.markup}</div></div>`;
  return c.html(page(assets, { title: 'Playground', section: 'author', me: c.get('me'), body }), note === '' && problem === null && tried.ok ? 200 : 422);
}

const text = (fields: Record<string, unknown>, name: string, fallback = '') => (typeof fields[name] === 'string' ? fields[name] as string : fallback);

export function registerPlaygroundPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  for (const path of ['/playground', '/apps/:appId/playground']) {
    router.get(path, (c) => show(c, assets, { ...EMPTY_TRY, tree: JSON.stringify(SAMPLE.tree, null, 2), actions: JSON.stringify(SAMPLE.actions, null, 2) }));
    for (const [suffix, trying] of [['', false], ['/try', true]] as const) {
      router.post(`${path}${suffix}`, async (c) => {
        const fields = await c.req.parseBody();
        return show(c, assets, {
          tree: text(fields, 'tree'), actions: text(fields, 'actions'),
          block: text(fields, 'block'), place: text(fields, 'place'), props: text(fields, 'props', '{}'), state: text(fields, 'state', '{}'),
        }, trying);
      });
    }
  }
}
