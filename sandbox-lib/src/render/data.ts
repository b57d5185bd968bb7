/**
 * @module render/data
 * Metrics (value, delta with its tone, a trend sparkline), meta lists and facts.
 */
import { cls, el, esc, safeHref } from './html.ts';
import { formatNumber } from './format.ts';
import { icon } from './icons.ts';
import { attrsOf, str, type Render } from './types.ts';

/** A small line through the points, decorative: the numbers are given as text beside it. */
export function sparkline(points: readonly number[], width = 80, height = 20): string {
  const min = Math.min(...points);
  const span = Math.max(...points) - min || 1;
  const step = width / Math.max(points.length - 1, 1);
  const d = points.map((p, i) => `${(i * step).toFixed(1)},${(height - ((p - min) / span) * height).toFixed(1)}`).join(' ');
  return `<svg class="pb-sparkline" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" aria-hidden="true" focusable="false"><polyline fill="none" stroke="currentColor" stroke-width="1.5" points="${d}"/></svg>`;
}

const metric: Render = (node) => {
  const a = attrsOf(node);
  const value = formatNumber(a.value, a);
  const label = esc(str(a.label) ?? '');
  const delta = typeof a.delta === 'object' && a.delta !== null ? a.delta as Record<string, unknown> : null;
  const deltaHtml = delta === null ? '' : (() => {
    const n = typeof delta.value === 'number' ? delta.value : 0;
    const tone = delta.tone === 'positive' || delta.tone === 'negative' ? delta.tone : 'neutral';
    const arrow = n > 0 ? '▲' : n < 0 ? '▼' : '–';
    return el('span', { class: cls('pb-delta', `pb-delta-${tone}`) },
      el('span', { 'aria-hidden': 'true' }, arrow) + esc(`${n > 0 ? '+' : ''}${formatNumber(n, a)}`) + el('span', { class: 'pb-sr' }, esc(` (${tone})`)));
  })();
  const trend = Array.isArray(a.trend) && a.trend.every((p) => typeof p === 'number' && Number.isFinite(p)) && a.trend.length >= 2
    ? sparkline(a.trend as number[]) + el('span', { class: 'pb-sr' }, esc(`Trend: ${(a.trend as number[]).join(', ')}`)) : '';
  const href = safeHref(a.href);
  const valueHtml = el('dd', { class: 'pb-metric-value' }, href === null ? esc(value) : el('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, esc(value)));
  return el('div', { class: 'pb-metric' }, el('dt', { class: 'pb-metric-label' }, label) + valueHtml + el('dd', { class: 'pb-metric-extra' }, deltaHtml + trend));
};

const metaItem: Render = (node) => {
  const a = attrsOf(node);
  const href = safeHref(a.href);
  const text = esc(str(a.text) ?? '');
  return el('li', { class: 'pb-meta-item' }, icon(a.icon) + (href === null ? text : el('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, text)));
};

const fact: Render = (node) => {
  const a = attrsOf(node);
  return el('div', { class: 'pb-fact' }, el('dt', {}, esc(str(a.label) ?? '')) + el('dd', {}, esc(str(a.value) ?? '')));
};

export const dataRenderers: Record<string, Render> = {
  uiMetrics: (node, ctx, kids) => el('dl', { class: 'pb-metrics' }, kids(node.content, ctx)),
  uiMetric: metric,
  uiMetaList: (node, ctx, kids) => el('ul', { class: 'pb-meta' }, kids(node.content, ctx)),
  uiMetaItem: metaItem,
  uiFacts: (node, ctx, kids) => el('dl', { class: 'pb-facts' }, kids(node.content, ctx)),
  uiFact: fact,
};
