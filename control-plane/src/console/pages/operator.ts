/**
 * @module console/pages/operator
 * The operator page (workspace owners and admins): each app's guest CPU per request (p50, p99),
 * requests by outcome, egress and blocked egress by host, cold starts, quarantines and lifecycle
 * delivery outcomes, and each runtime node's worker restarts, from
 * `GET /client/v1/operator/apps-metrics` (the processes' own metrics, counted since each started);
 * below, every app's usage summed over a window (`GET /client/v1/operator/usage`, console/pages/usage.ts).
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page, type Markup } from '../kit/layout.ts';
import { usageSection, usageWindowOf, type UsageAnswer } from './usage.ts';

type Counts = Record<string, number>;
interface AppMetrics {
  appId: string; slug: string; name: string; cpu: { p50Ms: number | null; p99Ms: number | null };
  requests: Counts; egress: Counts; blocked: Counts; coldStarts: number; quarantines: number; lifecycle: Counts;
}
interface Metrics { apps: AppMetrics[]; nodes: Array<{ url: string; reachable: boolean; workerRestarts: Counts }> }

const ms = (v: number | null) => (v === null ? '—' : `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`);

/** `ok 12, error 1`, largest first; a dash when empty. */
function counts(c: Counts, danger: (key: string) => boolean = () => false): Markup {
  const entries = Object.entries(c).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return html`<span class="muted">—</span>`;
  return html`<ul class="counts">${entries.map(([k, n]) => html`<li${danger(k) ? html` class="count-danger"` : ''}><span>${k}</span> <strong>${n}</strong></li>`)}</ul>`;
}

function appsTable(apps: AppMetrics[]): Markup {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="Apps' figures"><table class="table"><caption class="sr-only">Each app's figures since the processes started</caption>
    <thead><tr><th scope="col">App</th><th scope="col">CPU p50</th><th scope="col">CPU p99</th><th scope="col">Requests</th><th scope="col">Egress</th>
      <th scope="col">Blocked egress</th><th scope="col">Cold starts</th><th scope="col">Quarantines</th><th scope="col">Lifecycle deliveries</th></tr></thead><tbody>
    ${apps.map((a) => html`<tr data-app="${a.slug}"><th scope="row">${a.name} <span class="muted">${a.slug}</span></th><td class="num">${ms(a.cpu.p50Ms)}</td><td class="num">${ms(a.cpu.p99Ms)}</td>
      <td>${counts(a.requests, (k) => k !== 'ok')}</td><td>${counts(a.egress)}</td><td>${counts(a.blocked, () => true)}</td><td>${a.coldStarts}</td><td>${a.quarantines}</td>
      <td>${counts(a.lifecycle, (k) => k === 'dead' || k === 'paused')}</td></tr>`)}</tbody></table></div>`;
}

export function registerOperatorPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/operator', async (c) => {
    const window = usageWindowOf(c);
    const [got, usage] = await Promise.all([c.get('api').get<Metrics>('/operator/apps-metrics'), c.get('api').get<UsageAnswer>(`/operator/usage?last=${window}`)]);
    const me = c.get('me');
    if (got.status !== 200) return c.html(page(assets, { title: 'Operator', section: 'operator', me, body: html``, flash: { tone: 'danger', text: messageOf(got) } }), got.status === 403 ? 403 : 502);
    const { apps, nodes } = got.body;
    const body = html`<p class="muted">Counted since each process started, summed over the runtime nodes. CPU is the guest's per request.</p>
      ${apps.length === 0 ? html`<p class="muted">No apps in this workspace yet.</p>` : appsTable(apps)}
      ${usageSection(usage, window, (w) => `/console/operator?window=${w}`)}
      <h2>Runtime nodes</h2><table class="table"><caption class="sr-only">Runtime nodes</caption><thead><tr><th scope="col">Node</th><th scope="col">Answered</th><th scope="col">Worker restarts</th></tr></thead><tbody>
      ${nodes.map((n) => html`<tr><td><code>${n.url}</code></td><td>${n.reachable ? 'yes' : html`<span class="badge badge-danger">no</span>`}</td><td>${counts(n.workerRestarts, () => true)}</td></tr>`)}</tbody></table>`;
    return c.html(page(assets, { title: 'Operator', section: 'operator', me, body }));
  });
}
