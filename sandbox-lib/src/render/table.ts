/**
 * @module render/table
 * A table with a caption, column headers and typed cells; a row's menu is the last cell.
 */
import { menuList } from './actions.ts';
import type { RenderContext } from './context.ts';
import { cls, el, esc, safeHref } from './html.ts';
import { formatNumber } from './format.ts';
import { attrsOf, str, toneOf, type Render } from './types.ts';

type Column = Record<string, unknown>;

function cell(value: unknown, column: Column): string {
  if (value === null || value === undefined) return '';
  const v = typeof value === 'object' ? value as Record<string, unknown> : {};
  switch (column.type) {
    case 'number':
      return esc(formatNumber(value, column));
    case 'status':
      return el('span', { class: cls('pb-status', `pb-tone-${toneOf(v.tone)}`) }, el('span', { class: 'pb-dot', 'aria-hidden': 'true' }, '') + esc(str(v.label) ?? ''));
    case 'badge':
      return el('span', { class: cls('pb-badge', `pb-tone-${toneOf(v.tone)}`) }, esc(str(v.label) ?? ''));
    case 'link': {
      const href = safeHref(v.href);
      return href === null ? esc(str(v.label) ?? '') : el('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, esc(str(v.label) ?? ''));
    }
    case 'person':
      return esc(str(v.name) ?? '');
    case 'date':
      return el('time', { datetime: String(value) }, esc(value));
    default:
      return esc(typeof value === 'string' ? value : '');
  }
}

const align = (column: Column) => (column.align === 'end' || (column.align === undefined && column.type === 'number') ? 'pb-end' : column.align === 'center' ? 'pb-center' : null);

function row(r: Record<string, unknown>, columns: Column[], hasMenu: boolean, ctx: RenderContext): string {
  const cells = Array.isArray(r.cells) ? r.cells : [];
  const tds = columns.map((c, i) => el('td', { class: align(c) }, cell(cells[i], c))).join('');
  const menu = Array.isArray(r.menu) && r.menu.length > 0 ? menuList('Row actions', 'more', r.menu as Array<Record<string, unknown>>, ctx) : '';
  return el('tr', {}, tds + (hasMenu ? el('td', { class: 'pb-end' }, menu) : ''));
}

const table: Render = (node, ctx) => {
  const a = attrsOf(node);
  const columns = Array.isArray(a.columns) ? a.columns as Column[] : [];
  const rows = Array.isArray(a.rows) ? a.rows as Array<Record<string, unknown>> : [];
  const hasMenu = rows.some((r) => Array.isArray(r.menu) && r.menu.length > 0);
  const head = columns.map((c) => el('th', { scope: 'col', class: align(c) }, esc(str(c.label) ?? ''))).join('')
    + (hasMenu ? el('th', { scope: 'col' }, el('span', { class: 'pb-sr' }, 'Actions')) : '');
  const caption = str(a.title) === undefined ? '' : el('caption', {}, esc(a.title));
  return el('div', { class: 'pb-table-wrap', tabindex: '0', role: 'region', 'aria-label': str(a.title) ?? 'Table' },
    el('table', { class: 'pb-table' }, caption + el('thead', {}, el('tr', {}, head)) + el('tbody', {}, rows.map((r) => row(r, columns, hasMenu, ctx)).join(''))));
};

export const tableRenderers: Record<string, Render> = { uiTable: table };
