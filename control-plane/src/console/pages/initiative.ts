/**
 * @module console/pages/initiative
 * The Schedules and queues page of an app (ours, docs/decisions/queues.md): each install's
 * schedules with their next and last firing and the last firing's outcome
 * (`GET /v0/apps/{app_id}/schedules`), and each install's queue with its depth, the age of its
 * oldest message and its dead letters (`GET /v0/apps/{app_id}/queue`), dead letters linking to the
 * Deliveries page, where Redeliver sends them again.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { problemOf, problemText, when } from './author-forms.ts';

interface ScheduleState {
  installId: string; installKind: string; name: string; cron: string; timeZone: string;
  nextDueAt: string | null; lastDueAt: string | null; lastOutcome: string | null; skipped: number;
}
interface QueueOverview {
  items: Array<{ installId: string; installKind: string; depth: number; oldestAgeSeconds: number | null; deadLetters: number }>;
  deadLetters: Array<{ id: string; installId: string; createdAt: string; attempts: number; lastError: string | null }>;
}

const enc = encodeURIComponent;
const age = (s: number | null) => (s === null ? '—' : s < 120 ? `${s} s` : s < 7_200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3_600)} h`);
const time = (t: string | null): Markup => (t === null ? html`<span class="muted">—</span>` : html`<time datetime="${t}">${when(t)}</time>`);

function schedulesTable(items: readonly ScheduleState[]): Markup {
  if (items.length === 0) return html`<p class="muted">No schedules: <code>defineSchedule</code> adds them; installs read them within a second of a new version.</p>`;
  return html`<div class="table-scroll"><table class="table" aria-labelledby="schedules-title">
    <thead><tr><th scope="col">Schedule</th><th scope="col">When</th><th scope="col">Install</th><th scope="col">Next firing</th><th scope="col">Last firing</th><th scope="col">Outcome</th></tr></thead>
    <tbody>${items.map((s) => html`<tr><th scope="row"><code>${s.name}</code></th><td><code>${s.cron}</code> ${s.timeZone}</td>
      <td><code>${s.installId}</code> <span class="muted">(${s.installKind})</span></td><td class="num">${time(s.nextDueAt)}</td><td class="num">${time(s.lastDueAt)}</td>
      <td>${s.lastOutcome ?? html`<span class="muted">none yet</span>`}${s.skipped > 0 ? html` <span class="muted">· ${s.skipped} skipped while suspended or paused</span>` : ''}</td></tr>`)}</tbody></table></div>`;
}

function queuesTable(app: AuthorApp, q: QueueOverview): Markup {
  const installs = q.items.length === 0 ? html`<p class="muted">No queue messages yet: <code>ctx.queue.send</code> sends them, <code>defineQueue</code> receives them.</p>` : html`<div class="table-scroll"><table class="table" aria-labelledby="queues-title">
    <thead><tr><th scope="col">Install</th><th scope="col">Waiting</th><th scope="col">Oldest waiting</th><th scope="col">Dead letters</th></tr></thead>
    <tbody>${q.items.map((i) => html`<tr><th scope="row"><code>${i.installId}</code> <span class="muted">(${i.installKind})</span></th><td class="num">${i.depth}</td><td class="num">${age(i.oldestAgeSeconds)}</td><td class="num">${i.deadLetters}</td></tr>`)}</tbody></table></div>`;
  const dead = q.deadLetters.length === 0 ? '' : html`<h3 id="dead-title">Dead letters</h3>
    <p>Messages that used their attempts. Open one on the Deliveries page to send it again.</p>
    <ul class="plain" aria-labelledby="dead-title">${q.deadLetters.map((d) => html`<li><a href="${appPath(app.id, `/deliveries/${enc(d.id)}`)}"><code>${d.id}</code></a>
      <span class="muted">· <code>${d.installId}</code> · sent ${when(d.createdAt)} · ${d.attempts} attempts${d.lastError === null ? '' : html` · ${d.lastError}`}</span></li>`)}</ul>`;
  return html`${installs}${dead}`;
}

async function page(c: C, assets: Assets) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Schedules and queues');
  const app = got.body.app;
  const v0 = c.get('api').v0;
  const [schedules, queues] = await Promise.all([
    v0.get<{ items: ScheduleState[] }>(`/apps/${enc(app.id)}/schedules`), v0.get<QueueOverview>(`/apps/${enc(app.id)}/queue`),
  ]);
  const failed = schedules.status !== 200 ? schedules : queues.status !== 200 ? queues : null;
  const title = `Schedules and queues of ${app.name}`;
  if (failed !== null) return appPage(c, assets, app, { title, current: 'initiative', body: problemText('initiative-error', problemOf(failed)), status: statusOf(failed) });
  const body = html`<h2 id="schedules-title">Schedules</h2>${schedulesTable(schedules.body.items)}
    <p class="muted"><code>npx platform schedules run &lt;name&gt;</code> fires one now for your development install.</p>
    <h2 id="queues-title">Queues</h2>${queuesTable(app, queues.body)}`;
  return appPage(c, assets, app, { title, current: 'initiative', body });
}

export function registerInitiativePage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/schedules', (c) => page(c, assets));
}
