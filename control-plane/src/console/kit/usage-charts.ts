/**
 * @module console/kit/usage-charts
 * Usage over time drawn on the server as SVG (no chart library: a bar per bucket is a few `rect`s,
 * and nothing runs in the browser), one chart per figure: requests (failed ones in the danger
 * colour), CPU, deliveries (failed ones likewise), outbound bytes, storage operations and bytes, and queue messages.
 * Each chart is an image named by its title, total and peak, with a table of its non-empty
 * buckets beside it (in a `details`), which is what a screen reader or a copy-paste gets. The
 * window links (1 h, 24 h, 7 d, 90 d) ask the API for `last=…`, so the window ends at the control
 * plane's now.
 */
import { html, raw } from 'hono/html';
import type { Markup } from './layout.ts';

/** A point as the usage API answers it (apps/usage/schemas.ts). */
export interface UsagePoint {
  at: string;
  requests: Record<'ok' | 'error' | 'cpuLimit' | 'memoryLimit' | 'deadline' | 'crashed', number>;
  deliveries: { succeeded: number; failed: number };
  cpuUs: number;
  egress: { calls: number; bytesOut: number; bytesIn: number };
  storage: { bytes: number | null; reads: number; writes: number };
  queue: { sent: number; delivered: number };
}

export const USAGE_WINDOWS = ['1h', '24h', '7d', '90d'] as const;
export type UsageWindowName = (typeof USAGE_WINDOWS)[number];
const WINDOW_LABEL: Record<UsageWindowName, string> = { '1h': '1 hour', '24h': '24 hours', '7d': '7 days', '90d': '90 days' };

/** The window a page was asked for (`?window=`), 24 hours by default. */
export const windowOf = (asked: string | undefined): UsageWindowName => (USAGE_WINDOWS as readonly string[]).includes(asked ?? '') ? asked as UsageWindowName : '24h';

interface Chart {
  id: string;
  title: string;
  unit: (n: number) => string;
  /** The bar's height, and the part of it drawn as failed. */
  value: (p: UsagePoint) => number;
  bad?: (p: UsagePoint) => number;
  /** A gauge: the total is the latest value, not a sum. */
  gauge?: boolean;
}

const count = (n: number) => `${n}`;
const bytes = (n: number) => (n < 1024 ? `${n} B` : n < 1_048_576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1_048_576).toFixed(1)} MB`);
const cpu = (us: number) => (us < 1000 ? `${us} µs` : `${(us / 1000).toFixed(us < 10_000 ? 1 : 0)} ms`);
const requestsOf = (p: UsagePoint) => Object.values(p.requests).reduce((a, b) => a + b, 0);

const CHARTS: Chart[] = [
  { id: 'requests', title: 'Requests', unit: count, value: requestsOf, bad: (p) => requestsOf(p) - p.requests.ok },
  { id: 'cpu', title: 'CPU time', unit: cpu, value: (p) => p.cpuUs },
  { id: 'deliveries', title: 'Deliveries', unit: count, value: (p) => p.deliveries.succeeded + p.deliveries.failed, bad: (p) => p.deliveries.failed },
  { id: 'egress', title: 'Outbound bytes', unit: bytes, value: (p) => p.egress.bytesOut + p.egress.bytesIn },
  { id: 'storage-ops', title: 'Storage operations', unit: count, value: (p) => p.storage.reads + p.storage.writes },
  { id: 'storage', title: 'Storage kept', unit: bytes, value: (p) => p.storage.bytes ?? 0, gauge: true },
  { id: 'queue', title: 'Queue messages sent', unit: count, value: (p) => p.queue.sent },
];

const W = 600;
const H = 80;

function bars(points: readonly UsagePoint[], chart: Chart): string {
  const max = Math.max(1, ...points.map(chart.value));
  const w = W / Math.max(1, points.length);
  return points.map((p, i) => {
    const v = chart.value(p);
    if (v === 0) return '';
    const h = Math.max(1, (v / max) * H);
    const bad = chart.bad?.(p) ?? 0;
    const x = (i * w).toFixed(2);
    const part = bad === 0 ? '' : `<rect class="usage-bad" x="${x}" y="${(H - (bad / max) * H).toFixed(2)}" width="${w.toFixed(2)}" height="${Math.max(1, (bad / max) * H).toFixed(2)}"/>`;
    return `<rect class="usage-bar" x="${x}" y="${(H - h).toFixed(2)}" width="${w.toFixed(2)}" height="${h.toFixed(2)}"/>${part}`;
  }).join('');
}

const when = (at: string) => at.slice(0, 16).replace('T', ' ');

function chartFigure(points: readonly UsagePoint[], chart: Chart, scope: string): Markup {
  const values = points.map(chart.value);
  const latest = points.findLast((p) => p.storage.bytes !== null);
  const total = chart.gauge === true ? (latest === undefined ? 0 : chart.value(latest)) : values.reduce((a, b) => a + b, 0);
  const peak = Math.max(0, ...values);
  const shown = points.filter((p) => chart.value(p) > 0);
  const summary = `${chart.title}: ${chart.gauge === true ? 'latest' : 'total'} ${chart.unit(total)}, peak ${chart.unit(peak)} in one bucket`;
  const id = `${scope}-${chart.id}`;
  return html`<figure class="usage-chart" data-chart="${chart.id}"><figcaption id="${id}-title"><strong>${chart.title}</strong> <span class="muted">${chart.gauge === true ? 'latest' : 'total'} ${chart.unit(total)}</span></figcaption>
    <svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="${summary}" class="usage-svg">${raw(bars(points, chart))}</svg>
    <details><summary>${chart.title} as a table</summary>${shown.length === 0 ? html`<p class="muted">Nothing in this window.</p>` : html`<table class="table"><caption class="sr-only">${chart.title} per bucket (buckets with nothing left out)</caption>
      <thead><tr><th scope="col">From (UTC)</th><th scope="col">${chart.title}</th>${chart.bad === undefined ? '' : html`<th scope="col">Failed</th>`}</tr></thead>
      <tbody>${shown.map((p) => html`<tr><td>${when(p.at)}</td><td class="num">${chart.unit(chart.value(p))}</td>${chart.bad === undefined ? '' : html`<td class="num">${chart.bad(p)}</td>`}</tr>`)}</tbody></table>`}</details></figure>`;
}

/** The window links, the current one marked; `href(w)` is the page's own URL for window `w`. */
export function windowNav(current: UsageWindowName, href: (w: UsageWindowName) => string): Markup {
  return html`<nav aria-label="Usage window" class="usage-windows"><ul>${USAGE_WINDOWS.map((w) => html`<li>${w === current
    ? html`<a href="${href(w)}" aria-current="true"><strong>${WINDOW_LABEL[w]}</strong></a>` : html`<a href="${href(w)}">${WINDOW_LABEL[w]}</a>`}</li>`)}</ul></nav>`;
}

/** Every chart of a series; `scope` keeps ids apart when a page shows more than one series. */
export function usageCharts(points: readonly UsagePoint[], step: string, scope = 'usage'): Markup {
  return html`<p class="muted">Per ${step}, times in UTC. Counted exactly by the platform's processes.</p>
    <div class="usage-charts">${CHARTS.map((c) => chartFigure(points, c, scope))}</div>`;
}
