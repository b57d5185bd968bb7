/**
 * @module console/pages/env-vars
 * The Environment page of an app (`/v0/apps/{app_id}/env/{target}`): the variables of production or
 * preview, set (add or replace) and delete. The API never answers a secret's value, and the page
 * never writes back a value it was posted: after a refusal only the key comes back in the form, so
 * no secret lands in HTML, in the browser's history or in a cache.
 */
import type { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { confirmAction, invalidAttrs, problemFor, problemOf, problemText, textField, when, type Problem } from './author-forms.ts';

interface EnvVar { key: string; secret: boolean; value?: string; createdAt: string; updatedAt: string }
type Target = 'production' | 'preview';

const enc = encodeURIComponent;
const TARGETS: Target[] = ['production', 'preview'];
const targetOf = (s: string | undefined): Target => (s === 'preview' ? 'preview' : 'production');
const FIELDS = ['key', 'value'] as const;

function targets(app: AuthorApp, current: Target): Markup {
  return html`<nav aria-label="Environment"><ul class="subnav subnav-small">${TARGETS.map((t) =>
    html`<li><a href="${appPath(app.id, `/env?target=${t}`)}"${raw(t === current ? ' aria-current="page"' : '')}>${t === 'production' ? 'Production' : 'Preview'}</a></li>`)}</ul></nav>`;
}

function table(app: AuthorApp, target: Target, items: EnvVar[], opened: string | undefined): Markup {
  if (items.length === 0) return html`<p class="muted">No variables in ${target} yet.</p>`;
  return html`<table class="table"><caption class="sr-only">Variables of ${target}</caption>
    <thead><tr><th scope="col">Key</th><th scope="col">Value</th><th scope="col">Updated</th><th scope="col">Actions</th></tr></thead><tbody>
    ${items.map((v) => html`<tr data-env-key="${v.key}"><th scope="row"><code>${v.key}</code></th>
      <td>${v.secret ? html`<span class="masked" aria-hidden="true">••••••••</span> <span class="badge">secret</span><span class="sr-only"> value hidden</span>` : html`<code>${v.value ?? ''}</code>`}</td>
      <td><time datetime="${v.updatedAt}">${when(v.updatedAt)}</time></td>
      <td><a href="${appPath(app.id, `/env?target=${target}&key=${enc(v.key)}#env-key`)}">Replace<span class="sr-only"> ${v.key}</span></a>
        ${confirmAction({
          id: `delete-${v.key}`, page: appPath(app.id, '/env'), keep: { target }, trigger: 'Delete', triggerDetail: v.key,
          title: `Delete ${v.key} from ${target}?`, text: html`The app reads it from the next request on; a manifest that declares <code>${v.key}</code> required no longer publishes to ${target} without it.`,
          action: appPath(app.id, '/env/delete'), fields: { target, key: v.key }, confirm: 'Delete', opened,
        })}</td></tr>`)}</tbody></table>`;
}

function form(app: AuthorApp, target: Target, key: string, problem: Problem | null): Markup {
  const keyProblem = problemFor(problem, 'key');
  const valueProblem = problemFor(problem, 'value');
  return html`<form method="post" action="${appPath(app.id, '/env')}" class="stack" aria-labelledby="env-form-title">
    <h2 id="env-form-title">Add or replace a variable in ${target}</h2><input type="hidden" name="target" value="${target}">
    <label for="env-key">Key</label><input id="env-key" name="key" value="${key}" required autocomplete="off" spellcheck="false"${invalidAttrs('env-key-error', keyProblem)}>${problemText('env-key-error', keyProblem)}
    <label for="env-value">Value</label><input id="env-value" name="value" type="password" autocomplete="off"${invalidAttrs('env-value-error', valueProblem)}>${problemText('env-value-error', valueProblem)}
    <label class="check"><input type="checkbox" name="secret" value="yes" checked> Secret (write-only: never shown again)</label>
    ${problemText('env-form-error', problemFor(problem, null, FIELDS))}
    <button type="submit" class="primary">Save variable</button></form>`;
}

const DONE: Record<string, string> = { saved: 'Saved. The app sees it from its next request.', deleted: 'Deleted.' };

interface Shown {
  target?: Target;
  /** The key the form comes back with (never the value). */
  key?: string;
  /** The refusal of a set, under the form; of a delete, above the list. */
  problem?: Problem | null;
  listProblem?: Problem | null;
  status?: ContentfulStatusCode;
}

async function show(c: C, assets: Assets, input: Shown = {}) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Environment');
  const app = got.body.app;
  const q = c.req.query();
  const target = input.target ?? targetOf(q.target);
  const list = await c.get('api').v0.get<{ items: EnvVar[] }>(`/apps/${enc(app.id)}/env/${target}`);
  const listing = list.status === 200 ? table(app, target, list.body.items, q.confirm) : problemText('env-list-error', problemOf(list));
  const body = html`${targets(app, target)}<h2>Variables of ${target}</h2>${problemText('env-delete-error', input.listProblem ?? null)}${listing}${form(app, target, input.key ?? q.key ?? '', input.problem ?? null)}`;
  const done = q.done !== undefined && Object.hasOwn(DONE, q.done) ? DONE[q.done]! : null;
  return appPage(c, assets, app, {
    title: `Environment of ${app.name}`, current: 'env', body, status: input.status ?? (list.status === 200 ? 200 : statusOf(list)),
    flash: done === null ? null : { tone: 'success', text: done },
  });
}

export function registerEnvVarsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/env', (c) => show(c, assets));
  router.post('/apps/:appId/env', async (c) => {
    const appId = c.req.param('appId');
    const fields = await c.req.parseBody();
    const target = targetOf(textField(fields, 'target'));
    const key = textField(fields, 'key').trim();
    const done = await c.get('api').v0.put(`/apps/${enc(appId)}/env/${target}/${enc(key)}`, { value: textField(fields, 'value'), secret: fields.secret === 'yes' });
    if (done.status === 200) return c.redirect(appPath(appId, `/env?target=${target}&done=saved`), 303);
    // A key the route cannot even read (empty, a slash) is the key's problem too.
    const problem = problemOf(done);
    return show(c, assets, { target, key, problem: done.status === 404 && problem.tag === 'PlatformApiNotFoundError' ? { ...problem, field: 'key' } : problem, status: statusOf(done) });
  });
  router.post('/apps/:appId/env/delete', async (c) => {
    const appId = c.req.param('appId');
    const fields = await c.req.parseBody();
    const target = targetOf(textField(fields, 'target'));
    const done = await c.get('api').v0.del(`/apps/${enc(appId)}/env/${target}/${enc(textField(fields, 'key'))}`);
    if (done.status === 204) return c.redirect(appPath(appId, `/env?target=${target}&done=deleted`), 303);
    return show(c, assets, { target, listProblem: problemOf(done), status: statusOf(done) });
  });
}
