/**
 * @module render/structure
 * The block's frame: header, footer, sections (collapsible, with a disclosure button), columns,
 * tabs (an ARIA tab list; the client script moves between tabs with the arrow keys) and stacks.
 */
import type { UiElementNode } from '../catalog/kit/types.ts';
import { idFor } from './context.ts';
import { cls, el, esc, safeHref } from './html.ts';
import { icon } from './icons.ts';
import { runs } from './text.ts';
import { attrsOf, str, type Render } from './types.ts';

const header: Render = (node, ctx, kids) => {
  const a = attrsOf(node);
  const href = safeHref(a.href);
  const [title, ...marks] = node.content ?? [];
  const titleHtml = title?.type === 'uiHeaderTitle' ? runs((title as UiElementNode).content, href === null) : '';
  const heading = el('h3', { class: 'pb-title' }, href === null ? titleHtml : el('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, titleHtml));
  const trailing = str(a.trailing) === undefined ? '' : el('span', { class: 'pb-trailing' }, esc(a.trailing));
  return el('header', { class: 'pb-header' }, heading + el('span', { class: 'pb-marks' }, kids(marks, ctx)) + trailing);
};

const section: Render = (node, ctx, kids) => {
  const a = attrsOf(node);
  const handle = str(a.handle);
  const id = idFor(ctx, handle === undefined ? `section-${ctx.next()}` : `section-${handle}`);
  const collapsed = a.collapsed === true;
  const title = str(a.title);
  const body = el('div', { id: `${id}-body`, class: 'pb-section-body', hidden: collapsed }, kids(node.content, ctx));
  const head = title === undefined ? '' : el('h4', { class: 'pb-section-title' },
    el('button', { type: 'button', class: 'pb-disclosure', 'data-toggle': id, 'aria-expanded': String(!collapsed), 'aria-controls': `${id}-body` }, esc(title)));
  return el('section', { id, class: cls('pb-section', collapsed && 'pb-collapsed'), 'aria-label': title ?? null }, head + body);
};

const tabs: Render = (node, ctx, kids) => {
  const a = attrsOf(node);
  const id = idFor(ctx, `tabs-${ctx.next()}`);
  const list = (node.content ?? []).filter((n): n is UiElementNode => n.type === 'uiTab');
  const buttons = list.map((tab, i) => el('button', {
    type: 'button', role: 'tab', id: `${id}-tab-${i}`, 'aria-controls': `${id}-panel-${i}`, 'aria-selected': String(i === 0), tabindex: i === 0 ? '0' : '-1', class: 'pb-tab',
  }, icon(attrsOf(tab).icon) + esc(str(attrsOf(tab).label) ?? ''))).join('');
  const panels = list.map((tab, i) => el('div', {
    role: 'tabpanel', id: `${id}-panel-${i}`, 'aria-labelledby': `${id}-tab-${i}`, tabindex: '0', hidden: i !== 0, class: 'pb-tabpanel',
  }, kids(tab.content, ctx))).join('');
  const title = str(a.title);
  return el('div', { class: 'pb-tabs' }, (title === undefined ? '' : el('h4', { class: 'pb-tabs-title' }, esc(title)))
    + el('div', { role: 'tablist', class: 'pb-tablist', 'aria-label': title ?? 'Tabs' }, buttons) + panels);
};

const footer: Render = (node) => el('footer', { class: 'pb-footer' }, runs(node.content));

export const structureRenderers: Record<string, Render> = {
  uiHeader: header,
  uiHeaderTitle: (node) => runs(node.content),
  uiFooter: footer,
  uiSection: section,
  uiColumns: (node, ctx, kids) => el('div', { class: 'pb-columns' }, kids(node.content, ctx)),
  uiColumn: (node, ctx, kids) => el('div', { class: cls('pb-column', attrsOf(node).width === 'fill' && 'pb-fill') }, kids(node.content, ctx)),
  uiTabs: tabs,
  uiTab: (node, ctx, kids) => el('div', { class: 'pb-tabpanel' }, kids(node.content, ctx)),
  uiStack: (node, ctx, kids) => {
    const a = attrsOf(node);
    return el('div', { class: cls('pb-stack', a.direction === 'horizontal' && 'pb-horizontal', typeof a.gap === 'string' && `pb-gap-${a.gap}`) }, kids(node.content, ctx));
  },
};
