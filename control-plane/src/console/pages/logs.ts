/**
 * @module console/pages/logs
 * The Logs page of a hosted app (`GET /v0/apps/{app_id}/logs`): its lines newest first, filtered by
 * status, version, kind and install, a page at a time; the first page follows new lines live. The
 * client script opens an EventSource on `/console/apps/{id}/logs/stream`, which passes on the
 * tooling stream (`…/logs/stream`) read with the session's key, so the key never reaches page
 * script; `…/logs/{line}/profile` passes a CPU profile on as a download the same way.
 */
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { errorView, splitMessage, type LineError } from '../browser/log-lines.ts';
import { appPage, appRefused, loadApp } from './app-frame.ts';

type C = Context<ConsoleEnv>;

/** A line as `GET /v0/apps/{app_id}/logs` answers it (the fields the page shows). */
export interface LogLine {
  id: string; at: string; version: number | null; installId: string | null; kind: string;
  level: string; status: 'ok' | 'error'; message: string; profile: string | null;
  /** The error the line is about, with its frames (absent from services before it). */
  error?: LineError | null;
}

/** A line's error: collapsed, its summary and frame count; open, every frame (the author's file, line and function). */
function errorBlock(error: LineError, message: string): Markup {
  const view = errorView(error, message);
  return html`<details class="log-error"><summary>${view.summary}</summary><ol class="log-frames">
    ${view.frames.map((f) => html`<li><code>${f.text}</code>${f.bundle === null ? '' : html` <span class="muted">bundle ${f.bundle}</span>`}</li>`)}</ol>
    ${view.unmapped ? html`<p class="muted">Positions in the uploaded bundle: this version has no source map the runtime could use (platform deploy uploads it).</p>` : ''}</details>`;
}

const enc = encodeURIComponent;
const FILTERS = ['status', 'version', 'kind', 'install'] as const;
const KINDS = ['route', 'mcp', 'interactive', 'command', 'lifecycle'];

/**
 * One line: when, version, kind, level and status, the message's first line, the rest in a closed
 * disclosure, the line's error (every frame) in another, and the CPU profile's download when it has one. The client script
 * (browser/logs.ts) builds the same markup for live lines.
 */
export function logLine(appId: string, l: LogLine): Markup {
  const { head, stack } = splitMessage(l.message);
  return html`<li class="log-line log-${l.level} log-status-${l.status}" data-line-id="${l.id}">
    <time datetime="${l.at}">${l.at.slice(0, 19).replace('T', ' ')}</time>
    <span class="badge">${l.version === null ? 'dev' : `v${l.version}`}</span> <span class="muted">${l.kind}</span>
    <span class="badge${l.status === 'error' ? ' badge-danger' : ''}">${l.level} · ${l.status}</span>
    <span class="log-message">${head}</span>
    ${stack === null ? '' : html`<details><summary>Stack</summary><pre class="payload">${stack}</pre></details>`}
    ${l.error == null ? '' : errorBlock(l.error, l.message)}
    ${l.profile === null ? '' : html`<a href="/console/apps/${appId}/logs/${l.id}/profile" download>CPU profile<span class="sr-only"> of line ${l.id}</span></a>`}</li>`;
}

function filters(appId: string, q: Record<string, string>): Markup {
  const option = (value: string, label: string, current: string | undefined) => html`<option value="${value}"${current === value ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/console/apps/${appId}/logs" class="row" aria-label="Filter log lines">
    <label for="f-status">Status</label><select id="f-status" name="status">${option('', 'Any', q.status)}${option('error', 'error', q.status)}${option('ok', 'ok', q.status)}</select>
    <label for="f-kind">Kind</label><select id="f-kind" name="kind">${option('', 'Any', q.kind)}${KINDS.map((k) => option(k, k, q.kind))}</select>
    <label for="f-version">Version</label><input id="f-version" name="version" inputmode="numeric" size="5" value="${q.version ?? ''}">
    <label for="f-install">Install</label><input id="f-install" name="install" size="12" value="${q.install ?? ''}">
    <button type="submit" class="primary">Filter</button></form>`;
}

async function list(c: C, assets: Assets) {
  const appId = c.req.param('appId') ?? '';
  const q = c.req.query();
  const params = new URLSearchParams();
  for (const key of [...FILTERS, 'cursor']) if (q[key] !== undefined && q[key] !== '') params.set(key, q[key]!);
  const [app, got] = await Promise.all([loadApp(c), c.get('api').v0.get<{ items: LogLine[]; nextCursor: string | null }>(`/apps/${enc(appId)}/logs?${params}&limit=100`)]);
  if (app.status !== 200) return appRefused(c, assets, app, 'Logs');
  const title = `Logs of ${app.body.app.name}`;
  if (got.status !== 200) return appPage(c, assets, app.body.app, { title, current: 'logs', body: filters(appId, q), flash: { tone: 'danger', text: messageOf(got) }, status: got.status === 404 ? 404 : 400 });
  const { items, nextCursor } = got.body;
  const older = nextCursor === null ? null : `/console/apps/${appId}/logs?${new URLSearchParams({ ...Object.fromEntries(params), cursor: nextCursor })}`;
  // Only the newest page follows: new lines go on top of it, after the newest line shown.
  const follow = new URLSearchParams(params);
  if (items[0] !== undefined) follow.set('after', items[0].id);
  const live = params.has('cursor') ? null : `/console/apps/${appId}/logs/stream?${follow}`;
  const body = html`${filters(appId, q)}
    ${live === null ? '' : html`<p class="muted" role="status" id="log-follow">New lines appear at the top once the page is following.</p>`}
    <div role="log" aria-label="Log lines, newest first"><ol class="log-lines" id="log-lines"${live === null ? '' : html` data-log-stream="${live}" data-app-id="${appId}"`}>
      ${items.map((l) => logLine(appId, l))}</ol></div>
    ${items.length === 0 ? html`<p class="muted" id="log-empty">No lines match${live === null ? '' : ' yet'}.</p>` : ''}
    ${older === null ? '' : html`<p><a href="${older}">Older lines</a></p>`}`;
  return appPage(c, assets, app.body.app, { title, current: 'logs', body });
}

/** Passes the tooling API's answer on: the stream as it comes, a profile as a download, a refusal as is. */
async function pass(c: C, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const res = await c.get('api').v0.raw(path, headers);
  const out = new Headers();
  for (const name of ['content-type', 'content-disposition']) {
    const value = res.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  return new Response(res.body, { status: res.status, headers: out });
}

export function registerLogsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/logs', (c) => list(c, assets));
  router.get('/apps/:appId/logs/stream', (c) => {
    const q = c.req.query();
    const params = new URLSearchParams();
    // EventSource reconnects with the last id it saw: the tooling stream resumes after it, not after the page's newest line.
    const last = c.req.header('last-event-id');
    for (const key of [...FILTERS, ...(last === undefined ? ['after'] : [])]) if (q[key] !== undefined && q[key] !== '') params.set(key, q[key]!);
    return pass(c, `/apps/${enc(c.req.param('appId'))}/logs/stream?${params}`, last === undefined ? {} : { 'last-event-id': last });
  });
  router.get('/apps/:appId/logs/:lineId/profile', (c) => pass(c, `/apps/${enc(c.req.param('appId'))}/logs/${enc(c.req.param('lineId'))}/profile`));
}
