/**
 * @module console/pages/deliveries
 * The Deliveries page of an app (`/apps/{appId}/deliveries…` of the client API): every delivery,
 * filtered by outcome, class and type; one delivery with each attempt (when, how long, the status
 * and error answered) and the payload sent; redeliver a lifecycle delivery; the installs whose
 * deliveries are paused, with Resume.
 */
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appRefused, loadApp } from './app-frame.ts';

type C = Context<ConsoleEnv>;
interface Delivery { id: string; installId: string; class: string; type: string; outcome: string; attempts: number; lastStatus: number | null; lastError: string | null; nextAttemptAt: string | null; createdAt: string }
interface Attempt { attempt: number; startedAt: string; durationMs: number | null; status: number | null; error: string | null }
interface InstallState { installId: string; kind: string; installStatus: string; paused: { at: string; reason: string | null } | null; failingSince: string | null }

const OUTCOMES = ['pending', 'delivered', 'paused', 'dead', 'cancelled', 'failed'];
const when = (t: string | null) => (t === null ? '—' : t.slice(0, 19).replace('T', ' '));
const DONE: Record<string, string> = { redelivered: 'Sent again: it is due now, with a fresh retry schedule.', resumed: 'Resumed: what waited is due now.' };

function filters(appId: string, q: Record<string, string>): Markup {
  const option = (value: string, label: string, current: string | undefined) => html`<option value="${value}"${current === value ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/console/apps/${appId}/deliveries" class="row" aria-label="Filter deliveries">
    <label for="f-outcome">Status</label><select id="f-outcome" name="outcome">${option('', 'Any', q.outcome)}${OUTCOMES.map((o) => option(o, o, q.outcome))}</select>
    <label for="f-class">Class</label><select id="f-class" name="class">${option('', 'Any', q.class)}${option('lifecycle', 'lifecycle', q.class)}${option('interactive', 'interactive', q.class)}</select>
    <label for="f-type">Type</label><input id="f-type" name="type" value="${q.type ?? ''}" placeholder="post.created">
    <button type="submit" class="primary">Filter</button></form>`;
}

async function list(c: C, assets: Assets) {
  const api = c.get('api');
  const appId = c.req.param('appId') ?? '';
  const q = c.req.query();
  const params = new URLSearchParams();
  for (const key of ['outcome', 'class', 'type', 'cursor']) if (q[key] !== undefined && q[key] !== '') params.set(key, q[key]!);
  const [app, got, installs] = await Promise.all([
    loadApp(c),
    api.get<{ items: Delivery[]; nextCursor: string | null }>(`/apps/${appId}/deliveries?${params}`),
    api.get<{ items: InstallState[] }>(`/apps/${appId}/delivery-installs`),
  ]);
  if (app.status !== 200) return appRefused(c, assets, app, 'Deliveries');
  const title = `Deliveries of ${app.body.app.name}`;
  if (got.status !== 200) return appPage(c, assets, app.body.app, { title, current: 'deliveries', body: filters(appId, q), flash: { tone: 'danger', text: messageOf(got) }, status: got.status === 404 ? 404 : 400 });
  const paused = (installs.body?.items ?? []).filter((i) => i.paused !== null);
  const next = got.body.nextCursor === null ? null : `/console/apps/${appId}/deliveries?${new URLSearchParams({ ...Object.fromEntries(params), cursor: got.body.nextCursor })}`;
  const body = html`${paused.map((i) => html`<div class="flash flash-danger" role="alert">Deliveries to install ${i.installId} are paused since ${when(i.paused!.at)}${i.paused!.reason === null ? '' : ` (${i.paused!.reason})`}.
      <form method="post" action="/console/apps/${appId}/deliveries/resume" class="inline"><input type="hidden" name="installId" value="${i.installId}"><button type="submit">Resume</button></form></div>`)}
    ${filters(appId, q)}
    ${got.body.items.length === 0 ? html`<p class="muted">No deliveries match.</p>` : html`<table class="table"><caption class="sr-only">Deliveries, newest first</caption>
      <thead><tr><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Created</th></tr></thead><tbody>
      ${got.body.items.map((d) => html`<tr><td><a href="/console/apps/${appId}/deliveries/${d.id}">${d.type}</a> <span class="muted">${d.class}</span></td>
        <td><span class="badge outcome-${d.outcome}">${d.outcome}</span></td><td>${d.attempts}</td>
        <td>${d.lastStatus === null ? '' : html`${d.lastStatus} `}<span class="muted">${d.lastError ?? ''}</span></td><td><time datetime="${d.createdAt}">${when(d.createdAt)}</time></td></tr>`)}
      </tbody></table>`}${next === null ? '' : html`<p><a href="${next}">Older deliveries</a></p>`}`;
  const done = q.done !== undefined && Object.hasOwn(DONE, q.done) ? DONE[q.done]! : null;
  return appPage(c, assets, app.body.app, { title, current: 'deliveries', body, flash: done === null ? null : { tone: 'success', text: done } });
}

async function one(c: C, assets: Assets, flash: string | null = null) {
  const appId = c.req.param('appId') ?? '';
  const [app, got] = await Promise.all([
    loadApp(c),
    c.get('api').get<{ delivery: Delivery; attempts: Attempt[]; data: unknown; actor: { name: string } | null }>(`/apps/${appId}/deliveries/${c.req.param('deliveryId')}`),
  ]);
  if (app.status !== 200) return appRefused(c, assets, app, 'Delivery');
  if (got.status !== 200) return appPage(c, assets, app.body.app, { title: `Delivery of ${app.body.app.name}`, current: 'deliveries', body: html`<p><a href="/console/apps/${appId}/deliveries">All deliveries</a></p>`, flash: { tone: 'danger', text: messageOf(got) }, status: 404 });
  const { delivery: d, attempts, data, actor } = got.body;
  const body = html`<p><a href="/console/apps/${appId}/deliveries">All deliveries</a></p>
    <dl class="facts"><dt>Id (webhook-id)</dt><dd><code>${d.id}</code></dd><dt>Status</dt><dd><span class="badge outcome-${d.outcome}">${d.outcome}</span></dd>
    <dt>Install</dt><dd><code>${d.installId}</code></dd><dt>Next attempt</dt><dd>${when(d.nextAttemptAt)}</dd>${actor === null ? '' : html`<dt>Actor</dt><dd>${actor.name}</dd>`}</dl>
    ${d.class === 'lifecycle' ? html`<form method="post" action="/console/apps/${appId}/deliveries/${d.id}/redeliver"><button type="submit" class="primary">Redeliver</button></form>` : ''}
    <h2>Attempts</h2>${attempts.length === 0 ? html`<p class="muted">Not attempted yet.</p>` : html`<table class="table"><caption class="sr-only">Attempts</caption>
      <thead><tr><th scope="col">#</th><th scope="col">Started</th><th scope="col">Took</th><th scope="col">Response</th></tr></thead><tbody>
      ${attempts.map((a) => html`<tr><td>${a.attempt}</td><td>${when(a.startedAt)}</td><td>${a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
        <td>${a.status === null ? '' : html`<strong>${a.status}</strong> `}${a.error ?? ''}</td></tr>`)}</tbody></table>`}
    <h2>Request</h2><p class="muted">The envelope's <code>data</code>, signed and sent with this id.</p><pre class="payload" tabindex="0" aria-label="Request payload">${data === null ? '(interactive: no stored payload)' : JSON.stringify(data, null, 2)}</pre>`;
  return appPage(c, assets, app.body.app, { title: `${d.type} delivery to ${app.body.app.name}`, current: 'deliveries', body, flash: flash === null ? null : { tone: 'danger', text: flash }, status: flash === null ? 200 : 409 });
}

export function registerDeliveriesPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/deliveries', (c) => list(c, assets));
  router.get('/apps/:appId/deliveries/:deliveryId', (c) => one(c, assets));
  router.post('/apps/:appId/deliveries/resume', async (c) => {
    const appId = c.req.param('appId');
    const fields = await c.req.parseBody();
    const done = await c.get('api').post(`/apps/${appId}/delivery-installs/resume`, { installId: typeof fields.installId === 'string' ? fields.installId : '' });
    return c.redirect(`/console/apps/${appId}/deliveries${done.status === 200 ? '?done=resumed' : ''}`, 303);
  });
  router.post('/apps/:appId/deliveries/:deliveryId/redeliver', async (c) => {
    const appId = c.req.param('appId');
    const done = await c.get('api').post(`/apps/${appId}/deliveries/${c.req.param('deliveryId')}/redeliver`);
    return done.status === 200 ? c.redirect(`/console/apps/${appId}/deliveries?done=redelivered`, 303) : one(c, assets, messageOf(done));
  });
}
