/**
 * @module render/chart
 * Charts as inline SVG (bars, lines, areas, a donut) marked decorative, with the same numbers in a
 * table for screen readers: the picture is for the eye, the table is what assistive tech reads.
 */
import { el, esc } from './html.ts';
import { formatNumber } from './format.ts';
import { attrsOf, str, type Render } from './types.ts';

interface Series {
  name: string;
  points: Array<{ label: string; value: number }>;
}

const W = 320;
const H = 120;

function seriesOf(v: unknown): Series[] {
  if (!Array.isArray(v)) return [];
  return v.map((s: Record<string, unknown>) => ({
    name: str(s.name) ?? '',
    points: (Array.isArray(s.points) ? s.points : []).map((p: Record<string, unknown>) => ({ label: str(p.label) ?? '', value: typeof p.value === 'number' && Number.isFinite(p.value) ? p.value : 0 })),
  }));
}

function bars(series: Series[], max: number): string {
  const n = Math.max(...series.map((s) => s.points.length), 1);
  const slot = W / n;
  const width = (slot * 0.8) / Math.max(series.length, 1);
  return series.map((s, si) => s.points.map((p, i) => {
    const h = (Math.max(p.value, 0) / max) * H;
    return `<rect class="pb-series-${si}" x="${(i * slot + si * width + slot * 0.1).toFixed(1)}" y="${(H - h).toFixed(1)}" width="${width.toFixed(1)}" height="${h.toFixed(1)}"/>`;
  }).join('')).join('');
}

function lines(series: Series[], max: number, area: boolean): string {
  return series.map((s, si) => {
    const step = W / Math.max(s.points.length - 1, 1);
    const pts = s.points.map((p, i) => `${(i * step).toFixed(1)},${(H - (Math.max(p.value, 0) / max) * H).toFixed(1)}`);
    return area ? `<polygon class="pb-series-${si} pb-area" points="0,${H} ${pts.join(' ')} ${W},${H}"/>`
      : `<polyline class="pb-series-${si}" fill="none" stroke-width="2" points="${pts.join(' ')}"/>`;
  }).join('');
}

function donut(series: Series[]): string {
  const points = series[0]?.points ?? [];
  const total = points.reduce((t, p) => t + Math.max(p.value, 0), 0) || 1;
  const r = 15.915; // circumference 100: dash lengths are percentages.
  let offset = 25;
  return points.map((p, i) => {
    const share = (Math.max(p.value, 0) / total) * 100;
    const arc = `<circle class="pb-series-${i}" cx="21" cy="21" r="${r}" fill="none" stroke-width="6" stroke-dasharray="${share.toFixed(2)} ${(100 - share).toFixed(2)}" stroke-dashoffset="${offset.toFixed(2)}"/>`;
    offset -= share;
    return arc;
  }).join('');
}

function dataTable(series: Series[], a: Record<string, unknown>, title: string): string {
  const rows = series.flatMap((s) => s.points.map((p) => el('tr', {}, el('th', { scope: 'row' }, esc(`${s.name} · ${p.label}`)) + el('td', {}, esc(formatNumber(p.value, a)))))).join('');
  return el('table', { class: 'pb-sr' }, el('caption', {}, esc(title)) + el('tbody', {}, rows));
}

const chart: Render = (node) => {
  const a = attrsOf(node);
  const series = seriesOf(a.series);
  const max = Math.max(...series.flatMap((s) => s.points.map((p) => p.value)), 1);
  const type = a.chartType;
  const body = type === 'donut' ? donut(series) : type === 'line' ? lines(series, max, false) : type === 'area' ? lines(series, max, true) : bars(series, max);
  const box = type === 'donut' ? '0 0 42 42' : `0 0 ${W} ${H}`;
  const title = str(a.title) ?? 'Chart';
  const legend = el('ul', { class: 'pb-legend', 'aria-hidden': 'true' }, (type === 'donut' ? (series[0]?.points ?? []).map((p) => p.label) : series.map((s) => s.name))
    .map((name, i) => el('li', {}, el('span', { class: `pb-swatch pb-series-${i}` }, '') + esc(name))).join(''));
  const svg = `<svg class="pb-chart-svg pb-chart-${type === 'donut' ? 'donut' : 'xy'}" viewBox="${box}" preserveAspectRatio="none" aria-hidden="true" focusable="false">${body}</svg>`;
  return el('figure', { class: 'pb-chart' }, (str(a.title) === undefined ? '' : el('figcaption', {}, esc(a.title))) + svg + legend + dataTable(series, a, title));
};

export const chartRenderers: Record<string, Render> = { uiChart: chart };
