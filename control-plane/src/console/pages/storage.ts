/**
 * @module console/pages/storage
 * The Storage page of an app: the author's browser of what the app keeps
 * (`/v0/apps/{app_id}/storage/{dev|workspace}/…`), for its development install or its workspace
 * install: keys in order, values as compact JSON, sizes, a prefix filter, delete.
 */
import type { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { confirmAction, problemOf, problemText, textField, type Problem } from './author-forms.ts';

interface Entry { key: string; value: unknown; versionstamp: string }
type Install = 'dev' | 'workspace';

const enc = encodeURIComponent;
const INSTALLS: Install[] = ['workspace', 'dev'];
const installOf = (s: string | undefined): Install => (s === 'dev' ? 'dev' : 'workspace');
const PAGE = 100;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function installs(app: AuthorApp, current: Install): Markup {
  return html`<nav aria-label="Install"><ul class="subnav subnav-small">${INSTALLS.map((i) =>
    html`<li><a href="${appPath(app.id, `/storage?install=${i}`)}"${raw(i === current ? ' aria-current="page"' : '')}>${i === 'dev' ? 'Development install' : 'Workspace install'}</a></li>`)}</ul></nav>`;
}

function table(app: AuthorApp, install: Install, entries: Entry[], opened: string | undefined): Markup {
  if (entries.length === 0) return html`<p class="muted">Nothing stored here yet.</p>`;
  return html`<table class="table"><caption class="sr-only">Entries</caption>
    <thead><tr><th scope="col">Key</th><th scope="col">Value</th><th scope="col">Size</th><th scope="col">Actions</th></tr></thead><tbody>
    ${entries.map((e, i) => {
      const json = JSON.stringify(e.value);
      return html`<tr data-storage-key="${e.key}"><th scope="row"><code>${e.key}</code></th><td><code>${json.length > 200 ? `${json.slice(0, 200)}…` : json}</code></td>
      <td>${bytes(e.key) + bytes(json)} B</td>
      <td>${confirmAction({
        id: `delete-${i}`, page: appPath(app.id, '/storage'), keep: { install }, trigger: 'Delete', triggerDetail: e.key,
        title: `Delete ${e.key}?`, text: html`The app reads it as absent from now on.`,
        action: appPath(app.id, '/storage/delete'), fields: { install, key: e.key }, confirm: 'Delete', opened,
      })}</td></tr>`;
    })}</tbody></table>`;
}

async function show(c: C, assets: Assets, problem: Problem | null = null) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Storage');
  const app = got.body.app;
  const q = c.req.query();
  const install = installOf(q.install);
  const prefix = q.prefix ?? '';
  const list = await c.get('api').v0.post<{ entries: Entry[]; cursor: string | null }>(`/apps/${enc(app.id)}/storage/${install}/list`, { limit: PAGE, ...(prefix === '' ? {} : { prefix }) });
  const listing = list.status === 200
    ? html`${table(app, install, list.body.entries, q.confirm)}${list.body.cursor === null ? '' : html`<p class="muted">The first ${PAGE} keys; narrow the prefix to see others.</p>`}`
    : problemText('storage-list-error', problemOf(list));
  const body = html`${installs(app, install)}<form method="get" action="${appPath(app.id, '/storage')}" class="inline"><input type="hidden" name="install" value="${install}">
    <label for="storage-prefix">Keys starting with</label> <input id="storage-prefix" name="prefix" value="${prefix}" autocomplete="off" spellcheck="false"> <button type="submit">Filter</button></form>
    ${problemText('storage-delete-error', problem)}${listing}`;
  return appPage(c, assets, app, { title: `Storage of ${app.name}`, current: 'storage', body, status: list.status === 200 ? 200 : statusOf(list), flash: q.done === 'deleted' ? { tone: 'success', text: 'Deleted.' } : null });
}

export function registerStoragePage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/storage', (c) => show(c, assets));
  router.post('/apps/:appId/storage/delete', async (c) => {
    const appId = c.req.param('appId');
    const fields = await c.req.parseBody();
    const install = installOf(textField(fields, 'install'));
    const done = await c.get('api').v0.post(`/apps/${enc(appId)}/storage/${install}/commit`, { mutations: [{ type: 'delete', key: textField(fields, 'key') }] });
    if (done.status === 200) return c.redirect(appPath(appId, `/storage?install=${install}&done=deleted`), 303);
    return show(c, assets, problemOf(done));
  });
}
