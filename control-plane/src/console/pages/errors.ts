/**
 * @module console/pages/errors
 * The Errors page of an app (`GET /v0/apps/{app_id}/errors`): its error groups last seen first, a
 * page at a time, filtered by version and level; each group says how often, where in the app's
 * source, on which versions and in how many installs. One group's page (`…/errors/{group_id}`)
 * lists its newest examples, each linked to its log line or its delivery.
 */
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import type { ErrorGroup, ErrorGroupDetail } from '@platform/sdk';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp } from './app-frame.ts';

type C = Context<ConsoleEnv>;
const enc = encodeURIComponent;
const LEVELS = ['error', 'limit', 'delivery'];

const when = (at: string): Markup => html`<time datetime="${at}">${at.slice(0, 19).replace('T', ' ')}</time>`;

function where(group: ErrorGroup): Markup {
  const f = group.topFrame;
  return f === null ? html`` : html`<code>at ${f.function ?? '<anonymous>'} (${f.file}${f.line === null ? '' : `:${f.line}`})</code>`;
}

function versions(group: ErrorGroup): Markup {
  return html`${group.versions.map((v, i) => html`${i > 0 ? ', ' : ''}<span class="badge">${v.version === null ? 'dev' : `v${v.version}`}</span> ${v.count}`)}`;
}

function groupRow(appId: string, g: ErrorGroup): Markup {
  return html`<tr>
    <td>${g.count}</td>
    <td><a href="${appPath(appId, `/errors/${enc(g.id)}`)}">${g.name}: ${g.message}</a><br>${where(g)}</td>
    <td><span class="badge${g.level === 'limit' ? '' : ' badge-danger'}">${g.level}</span></td>
    <td>${versions(g)}</td><td>${g.installs}</td><td>${when(g.lastSeen)}</td></tr>`;
}

function filters(appId: string, q: Record<string, string>): Markup {
  const option = (value: string, label: string) => html`<option value="${value}"${q.level === value ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="${appPath(appId, '/errors')}" class="row" aria-label="Filter error groups">
    <label for="e-level">Level</label><select id="e-level" name="level">${option('', 'Any')}${LEVELS.map((l) => option(l, l))}</select>
    <label for="e-version">Version</label><input id="e-version" name="version" inputmode="numeric" size="5" value="${q.version ?? ''}">
    <button type="submit" class="primary">Filter</button></form>`;
}

async function list(c: C, assets: Assets) {
  const appId = c.req.param('appId') ?? '';
  const q = c.req.query();
  const params = new URLSearchParams();
  for (const key of ['level', 'version', 'cursor']) if (q[key] !== undefined && q[key] !== '') params.set(key, q[key]!);
  const [app, got] = await Promise.all([loadApp(c), c.get('api').v0.get<{ items: ErrorGroup[]; nextCursor: string | null }>(`/apps/${enc(appId)}/errors?${params}`)]);
  if (app.status !== 200) return appRefused(c, assets, app, 'Errors');
  const title = `Errors of ${app.body.app.name}`;
  if (got.status !== 200) return appPage(c, assets, app.body.app, { title, current: 'errors', body: filters(appId, q), flash: { tone: 'danger', text: messageOf(got) }, status: got.status === 404 ? 404 : 400 });
  const { items, nextCursor } = got.body;
  const older = nextCursor === null ? null : `${appPath(appId, '/errors')}?${new URLSearchParams({ ...Object.fromEntries(params), cursor: nextCursor })}`;
  const body = html`<p class="muted">Occurrences with the same name, the same message once ids and numbers are masked, and the same innermost frame in the app's source are one group. The first version listed is the one a group is new on.</p>
    ${filters(appId, q)}
    ${items.length === 0 ? html`<p class="muted">No errors match.</p>` : html`<table><caption class="sr-only">Error groups, last seen first</caption>
      <thead><tr><th scope="col">Count</th><th scope="col">Error</th><th scope="col">Level</th><th scope="col">Versions</th><th scope="col">Installs</th><th scope="col">Last seen</th></tr></thead>
      <tbody>${items.map((g) => groupRow(appId, g))}</tbody></table>`}
    ${older === null ? '' : html`<p><a href="${older}">Older groups</a></p>`}`;
  return appPage(c, assets, app.body.app, { title, current: 'errors', body });
}

function example(appId: string, e: ErrorGroupDetail['examples'][number]): Markup {
  const version = html`<span class="badge">${e.version === null ? 'dev' : `v${e.version}`}</span>`;
  if (e.line === null) {
    return e.deliveryId === null ? html`<li>${version} its log line is no longer kept</li>`
      : html`<li>${version} delivery <a href="${appPath(appId, `/deliveries/${enc(e.deliveryId)}`)}"><code>${e.deliveryId}</code></a></li>`;
  }
  const frames = e.line.error?.frames ?? [];
  return html`<li>${version} ${when(e.line.at)} <a href="${appPath(appId, `/logs?version=${e.line.version ?? ''}&status=error`)}">line ${e.line.id}</a>: ${e.line.error?.message ?? e.line.message}
    ${frames.length === 0 ? '' : html`<ol class="log-frames">${frames.map((f) => html`<li><code>at ${f.function ?? '<anonymous>'} (${f.file ?? 'native'}${f.line === null ? '' : `:${f.line}:${f.column ?? 0}`})</code></li>`)}</ol>`}</li>`;
}

async function one(c: C, assets: Assets) {
  const appId = c.req.param('appId') ?? '';
  const [app, got] = await Promise.all([loadApp(c), c.get('api').v0.get<ErrorGroupDetail>(`/apps/${enc(appId)}/errors/${enc(c.req.param('groupId') ?? '')}`)]);
  if (app.status !== 200) return appRefused(c, assets, app, 'Error');
  if (got.status !== 200) return appPage(c, assets, app.body.app, { title: 'Error group', current: 'errors', body: html`<p><a href="${appPath(appId, '/errors')}">All errors</a></p>`, flash: { tone: 'danger', text: messageOf(got) }, status: got.status === 404 ? 404 : 400 });
  const g = got.body;
  const body = html`<p><a href="${appPath(appId, '/errors')}">All errors</a></p>
    <dl class="facts"><dt>Error</dt><dd>${g.name}: ${g.message}</dd><dt>Latest</dt><dd>${g.sample}</dd><dt>Where</dt><dd>${g.topFrame === null ? 'no frame in the app\'s source' : where(g)}</dd>
      <dt>Count</dt><dd>${g.count}</dd><dt>Installs</dt><dd>${g.installs}</dd><dt>Versions</dt><dd>${versions(g)}</dd>
      <dt>First seen</dt><dd>${when(g.firstSeen)}</dd><dt>Last seen</dt><dd>${when(g.lastSeen)}</dd></dl>
    <h2>Newest examples</h2><ol class="examples">${g.examples.map((e) => example(appId, e))}</ol>`;
  return appPage(c, assets, app.body.app, { title: `${g.name}: ${g.message}`.slice(0, 120), current: 'errors', body });
}

export function registerErrorsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/errors', (c) => list(c, assets));
  router.get('/apps/:appId/errors/:groupId', (c) => one(c, assets));
}
