/**
 * @module render/content
 * Items, text, callouts, steps, quotes, files, images (an https `src`, or an asset id the caller
 * resolves), progress, avatars, badges, statuses and icons.
 */
import type { UiElementNode } from '../catalog/kit/types.ts';
import type { RenderContext } from './context.ts';
import { cls, el, esc, safeHref } from './html.ts';
import { formatBytes, formatNumber } from './format.ts';
import { icon } from './icons.ts';
import { runs } from './text.ts';
import { attrsOf, own, str, toneOf, type Render } from './types.ts';

const TONE_GLYPH: Readonly<Record<string, string>> = { info: 'info', success: 'check-circle', warning: 'warning', danger: 'x-circle' };
const link = (href: string, inner: string, className?: string) =>
  el('a', { href, class: className, rel: 'noopener noreferrer nofollow', target: '_blank' }, inner);

/** An image URL: https as written (unless `remoteImages` is false), an asset id through the caller, or null (the alt text shows instead). */
export function imageUrl(src: unknown, ctx: RenderContext): string | null {
  if (typeof src !== 'string' || src === '') return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(src)) return ctx.remoteImages === false ? null : safeHref(src);
  return ctx.assetUrl === undefined ? null : ctx.assetUrl(src);
}

function avatar(name: string, src: unknown, ctx: RenderContext): string {
  const url = imageUrl(src, ctx);
  if (url !== null) return el('img', { class: 'pb-avatar', src: url, alt: name, width: 24, height: 24 });
  const initials = [...name.trim()].slice(0, 1).join('').toUpperCase();
  return el('span', { class: 'pb-avatar', role: 'img', 'aria-label': name }, esc(initials));
}

const item: Render = (node, ctx, kids) => {
  const a = attrsOf(node);
  const href = safeHref(a.href);
  const [title, ...marks] = node.content ?? [];
  const titleHtml = title?.type === 'uiItemTitle' ? runs((title as UiElementNode).content, href === null) : '';
  const lead = a.avatarSrc === undefined ? icon(a.icon) : avatar('', a.avatarSrc, ctx);
  const main = el('div', { class: 'pb-item-main' }, el('span', { class: 'pb-item-title' }, href === null ? titleHtml : link(href, titleHtml))
    + el('span', { class: 'pb-marks' }, kids(marks, ctx))
    + (str(a.description) === undefined ? '' : el('p', { class: 'pb-item-description' }, esc(a.description))));
  return el('div', { class: 'pb-item' }, lead + main + (str(a.trailing) === undefined ? '' : el('span', { class: 'pb-trailing' }, esc(a.trailing))));
};

const callout: Render = (node) => {
  const a = attrsOf(node);
  const tone = toneOf(a.tone);
  const glyph = tone === 'neutral' ? icon(a.icon) : icon(own(TONE_GLYPH, tone));
  const title = str(a.title) === undefined ? '' : el('strong', { class: 'pb-callout-title' }, esc(a.title));
  return el('div', { class: cls('pb-callout', `pb-tone-${tone}`), role: 'note' }, glyph + el('div', {}, title + el('p', {}, runs(node.content))));
};

const STEP_WORDS: Readonly<Record<string, string>> = { upcoming: 'Upcoming', current: 'Current', done: 'Done', failed: 'Failed', skipped: 'Skipped' };

const step: Render = (node) => {
  const a = attrsOf(node);
  const state = own(STEP_WORDS, a.state) === undefined ? 'upcoming' : a.state as string;
  return el('div', { class: cls('pb-step', `pb-step-${state}`), 'aria-current': state === 'current' ? 'step' : null },
    el('span', { class: 'pb-step-state' }, esc(own(STEP_WORDS, state))) + el('span', { class: 'pb-step-label' }, esc(str(a.label) ?? ''))
    + (str(a.description) === undefined ? '' : el('p', { class: 'pb-step-description' }, esc(a.description))));
};

const quote: Render = (node) => {
  const a = attrsOf(node);
  const href = safeHref(a.href);
  const by = str(a.attribution);
  const cite = by === undefined ? '' : el('figcaption', {}, '— ' + (href === null ? esc(by) : link(href, esc(by))));
  return el('figure', { class: 'pb-quote' }, el('blockquote', { cite: href }, el('p', {}, runs(node.content))) + cite);
};

const file: Render = (node) => {
  const a = attrsOf(node);
  const href = safeHref(a.url);
  const name = esc(str(a.name) ?? '');
  const meta = [formatBytes(a.size), str(a.mimeType) ?? ''].filter((s) => s !== '').join(' · ');
  return el('div', { class: 'pb-file' }, icon('file') + (href === null ? name : link(href, name, 'pb-file-name'))
    + (meta === '' ? '' : el('span', { class: 'pb-file-meta' }, esc(meta))));
};

const image: Render = (node, ctx) => {
  const a = attrsOf(node);
  const url = imageUrl(a.src, ctx);
  const alt = str(a.alt) ?? '';
  const width = typeof a.width === 'number' ? a.width : null;
  const height = typeof a.height === 'number' ? a.height : null;
  const img = url === null ? el('span', { class: 'pb-image-missing', role: 'img', 'aria-label': alt }, esc(alt))
    : el('img', { class: 'pb-image', src: url, alt, width, height, loading: 'lazy' });
  const href = safeHref(a.href);
  return el('figure', { class: 'pb-figure' }, href === null ? img : link(href, img));
};

const progress: Render = (node) => {
  const a = attrsOf(node);
  const value = typeof a.value === 'number' ? a.value : 0;
  const max = typeof a.max === 'number' && a.max > 0 ? a.max : 1;
  const text = typeof a.max === 'number'
    ? `${formatNumber(value, {})} of ${formatNumber(max, {})}${str(a.unit) === undefined ? '' : ` ${a.unit as string}`}`
    : formatNumber(value, { format: 'percent' });
  const label = str(a.label) ?? 'Progress';
  return el('div', { class: cls('pb-progress', `pb-tone-${toneOf(a.tone)}`) },
    el('span', { class: 'pb-progress-label' }, esc(label))
    + el('progress', { value: String(Math.min(value, max)), max: String(max), 'aria-label': label, 'aria-valuetext': text }, esc(text))
    + el('span', { class: 'pb-progress-text' }, esc(text)));
};

const avatarStack: Render = (node, ctx) => {
  const a = attrsOf(node);
  const people = Array.isArray(a.people) ? (a.people as Array<Record<string, unknown>>) : [];
  const shown = people.slice(0, 5).map((p) => avatar(str(p.name) ?? '', p.avatarSrc, ctx)).join('');
  const more = people.length > 5 ? el('span', { class: 'pb-avatar pb-more' }, `+${people.length - 5}`) : '';
  const names = people.map((p) => str(p.name) ?? '').join(', ');
  return el('div', { class: 'pb-avatars', role: 'group', 'aria-label': str(a.label) ?? names }, shown + more
    + (str(a.label) === undefined ? '' : el('span', { class: 'pb-avatars-label' }, esc(a.label))));
};

export const contentRenderers: Record<string, Render> = {
  uiItem: item,
  uiItemTitle: (node) => runs(node.content),
  uiText: (node) => el('p', { class: cls('pb-text', typeof node.attrs?.variant === 'string' && `pb-${node.attrs.variant as string}`) }, runs(node.content)),
  uiCallout: callout,
  uiStep: step,
  uiQuote: quote,
  uiFile: file,
  uiImage: image,
  uiProgress: progress,
  uiAvatarStack: avatarStack,
  uiBadge: (node) => {
    const a = attrsOf(node);
    return el('span', { class: cls('pb-badge', `pb-tone-${toneOf(a.tone)}`) }, icon(a.icon) + esc(str(a.label) ?? ''));
  },
  uiStatus: (node) => {
    const a = attrsOf(node);
    return el('span', { class: cls('pb-status', `pb-tone-${toneOf(a.tone)}`) }, el('span', { class: 'pb-dot', 'aria-hidden': 'true' }, '') + esc(str(a.label) ?? ''));
  },
  uiIcon: (node) => {
    const a = attrsOf(node);
    const label = str(a.label);
    return el('span', { class: cls('pb-icon-wrap', `pb-tone-${toneOf(a.tone)}`) }, icon(a.name) + (label === undefined ? '' : el('span', { class: 'pb-sr' }, esc(label))));
  },
};
