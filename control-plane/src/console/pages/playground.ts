/**
 * @module console/pages/playground
 * The playground: a tree's JSON (and its action table) beside the card it draws, checked by the
 * service's validator (`POST /v0/apps/check/trees`), whose message is pinned to the node at fault
 * in the drawing. The same renderer draws it as the console's cards and `platform dev` do. "Try"
 * posts it as a block of one of the author's development installs, whose buttons run the app's
 * own handler (playground-try.ts); the first tree shown is a sample of the type it preselects
 * (playground-sample.ts). An app's playground sits in the app's frame.
 */
import type { Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { renderBlock } from '@platform/sdk/render';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page, type Markup } from '../kit/layout.ts';
import { appPage, appRefused, loadApp } from './app-frame.ts';
import { TOUR, sampleFor } from './playground-sample.ts';
import { preferredBlock, tryChoices, tryFields, tryTree, type TryChoices, type TryInput } from './playground-try.ts';

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

/** The playground's own page, or an app's page in the app's frame (its name and tabs); another member's app is the API's refusal. */
async function framed(c: Context<ConsoleEnv>, assets: Assets, body: Markup, status: ContentfulStatusCode) {
  if (c.req.param('appId') === undefined) return c.html(page(assets, { title: 'Playground', section: 'author', me: c.get('me'), body }), status);
  const app = await loadApp(c);
  if (app.status !== 200) return appRefused(c, assets, app, 'Playground');
  return appPage(c, assets, app.body.app, { title: `Playground of ${app.body.app.name}`, current: 'playground', body, status });
}

/** The page; `trying` asks to post the tree as a live card of the chosen dev install (when it checked valid). */
async function show(c: Context<ConsoleEnv>, assets: Assets, input: Input, trying = false, known?: TryChoices) {
  const api = c.get('api');
  const [checked, choices] = await Promise.all([check(c, input), known ?? tryChoices(api, c.get('me'))]);
  const { problem, note, parsed } = checked;
  const verdict = note !== '' ? html`<p class="flash flash-danger" role="alert">${note}</p>`
    : problem === null ? html`<p class="flash flash-success" role="status">Valid: apps can send this tree.</p>`
      : html`<div class="flash flash-danger" role="alert"><p>${problem.message}</p><p class="muted">at <code>${problem.path.join(' › ') || '(root)'}</code></p></div>`;
  const drawing = typeof parsed === 'object' && parsed !== null ? raw(renderBlock(parsed, { idPrefix: 'playground', problem, remoteImages: false })) : '';
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
  return framed(c, assets, body, note === '' && problem === null && tried.ok ? 200 : 422);
}

/** The first view: a sample of the type "Try" preselects (it can be tried as it stands), else the catalog tour. */
async function first(c: Context<ConsoleEnv>, assets: Assets) {
  const choices = await tryChoices(c.get('api'), c.get('me'));
  const preferred = preferredBlock(choices, c.req.param('appId'));
  const sample = preferred === undefined ? TOUR : sampleFor(preferred);
  return show(c, assets, { ...EMPTY_TRY, tree: JSON.stringify(sample.tree, null, 2), actions: JSON.stringify(sample.actions, null, 2) }, false, choices);
}

const text = (fields: Record<string, unknown>, name: string, fallback = '') => (typeof fields[name] === 'string' ? fields[name] as string : fallback);

export function registerPlaygroundPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  for (const path of ['/playground', '/apps/:appId/playground']) {
    router.get(path, (c) => first(c, assets));
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
