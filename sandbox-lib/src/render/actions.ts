/**
 * @module render/actions
 * Buttons and menus. An action control carries its reference (`data-ref`) for the client script;
 * a control with `confirm` opens a native `<dialog>` that holds the confirming button; the pending
 * control is busy and every action control is disabled while an action is pending or once the
 * block is final. Link buttons are links, copy buttons carry their text, toggle buttons control
 * their section (`aria-controls`, `aria-expanded`).
 */
import type { UiElementNode } from '../catalog/kit/types.ts';
import type { RenderContext } from './context.ts';
import { idFor } from './context.ts';
import { cls, el, esc, safeHref } from './html.ts';
import { icon } from './icons.ts';
import { attrsOf, refOf, str, type Kids, type Render } from './types.ts';

export interface ActionControl {
  label: string;
  ref?: string | undefined;
  href?: string | undefined;
  intent?: string | undefined;
  confirm?: unknown;
  icon?: unknown;
}

const locked = (ctx: RenderContext): boolean => ctx.final != null || ctx.pending != null;

/** A label with nothing visible in it (only in trees that failed validation) still names its control. */
const named = (label: string | undefined): string => (label === undefined || label.trim() === '' ? '(no label)' : label);

function confirmDialog(ctx: RenderContext, id: string, ref: string, confirm: Record<string, unknown>, destructive: boolean): string {
  const title = el('h2', { id: `${id}-title`, class: 'pb-confirm-title' }, esc(str(confirm.title) ?? 'Are you sure?'));
  const body = str(confirm.body) === undefined ? '' : el('p', { class: 'pb-confirm-body' }, esc(confirm.body));
  const buttons = el('div', { class: 'pb-confirm-buttons' },
    el('button', { type: 'button', class: 'pb-button', 'data-cancel': true }, 'Cancel')
    + el('button', { type: 'button', class: cls('pb-button', destructive ? 'pb-destructive' : 'pb-primary'), 'data-ref': ref, 'data-confirmed': 'true', disabled: locked(ctx) }, 'Confirm'));
  return el('dialog', { id, class: 'pb-confirm', 'aria-labelledby': `${id}-title` }, title + body + buttons);
}

/** A button (or menu entry) that runs an action, opens a link, or asks to confirm first. */
export function actionControl(c: ActionControl, ctx: RenderContext, className = 'pb-button'): string {
  c = { ...c, label: named(c.label) };
  const label = icon(c.icon) + el('span', {}, esc(c.label));
  const intentClass = c.intent === 'primary' ? 'pb-primary' : c.intent === 'destructive' ? 'pb-destructive' : '';
  if (c.href !== undefined) {
    const href = safeHref(c.href);
    if (href === null) return el('span', { class: cls(className, 'pb-disabled') }, label);
    return el('a', { class: cls(className, intentClass), href, rel: 'noopener noreferrer nofollow', target: '_blank' }, label);
  }
  const ref = c.ref ?? '';
  const busy = ctx.pending?.ref === ref && ref !== '';
  const shown = busy ? el('span', { class: 'pb-spinner', 'aria-hidden': 'true' }, '') + el('span', {}, `${esc(c.label)} · Working…`) : label;
  if (typeof c.confirm === 'object' && c.confirm !== null) {
    const id = idFor(ctx, `confirm-${ctx.next()}`);
    return el('button', { type: 'button', class: cls(className, intentClass), 'data-confirm': id, 'aria-haspopup': 'dialog', disabled: locked(ctx), 'aria-busy': busy ? 'true' : null }, shown)
      + confirmDialog(ctx, id, ref, c.confirm as Record<string, unknown>, c.intent === 'destructive');
  }
  return el('button', { type: 'button', class: cls(className, intentClass), 'data-ref': ref, disabled: locked(ctx), 'aria-busy': busy ? 'true' : null }, shown);
}

const button: Render = (node, ctx) => {
  const a = attrsOf(node);
  const label = named(str(a.label));
  switch (a.buttonType) {
    case 'submit': {
      const ref = refOf(a.action) ?? '';
      const busy = ctx.pending?.ref === ref;
      const intent = a.intent === 'destructive' ? 'pb-destructive' : 'pb-primary';
      const confirm = typeof a.confirm === 'object' && a.confirm !== null ? a.confirm as Record<string, unknown> : null;
      return el('button', {
        type: 'submit', class: cls('pb-button', intent), 'data-submit-ref': ref, disabled: locked(ctx), 'aria-busy': busy ? 'true' : null,
        'data-confirm-title': confirm === null ? null : str(confirm.title) ?? 'Are you sure?', 'data-confirm-body': confirm === null ? null : str(confirm.body),
      }, icon(a.icon) + el('span', {}, esc(busy ? `${label} · Working…` : label)));
    }
    case 'link':
      return actionControl({ label, href: str(a.href) ?? '', icon: a.icon }, ctx);
    case 'copy':
      return el('button', { type: 'button', class: 'pb-button', 'data-copy': str(a.copyText) ?? '' }, icon(a.icon ?? 'copy') + el('span', {}, esc(label)));
    case 'toggle': {
      const target = idFor(ctx, `section-${str(a.target) ?? ''}`);
      const expanded = ctx.sections.get(str(a.target) ?? '') !== true;
      return el('button', { type: 'button', class: 'pb-button', 'data-toggle': target, 'aria-controls': `${target}-body`, 'aria-expanded': String(expanded) }, icon(a.icon) + el('span', {}, esc(label)));
    }
    default:
      return actionControl({ label, ref: refOf(a.action), intent: str(a.intent), confirm: a.confirm, icon: a.icon }, ctx);
  }
};

/** Menu items as a disclosure: a `<details>` list of buttons and links (no ARIA menu to get wrong). */
export function menuList(label: string, iconName: unknown, items: ReadonlyArray<Record<string, unknown>>, ctx: RenderContext): string {
  const entries = items.map((i) => el('li', {}, actionControl({
    label: str(i.label) ?? '', ref: refOf(i.action), href: str(i.href), intent: str(i.intent), confirm: i.confirm, icon: i.icon,
  }, ctx, 'pb-menu-item'))).join('');
  return el('details', { class: 'pb-menu' }, el('summary', { class: 'pb-button' }, icon(iconName) + esc(named(label))) + el('ul', { class: 'pb-menu-list' }, entries));
}

const menu: Render = (node, ctx) => {
  const a = attrsOf(node);
  const items = (node.content ?? []).filter((n): n is UiElementNode => n.type === 'uiMenuItem').map((n) => attrsOf(n));
  return menuList(str(a.label) ?? 'More', a.icon, items, ctx);
};

const menuItem: Render = (node, ctx) => menuList('More', undefined, [attrsOf(node)], ctx);

const bar = (className: string): Render => (node, ctx, kids: Kids) => el('div', { class: className }, kids(node.content, ctx));

export const actionRenderers: Record<string, Render> = {
  uiActions: bar('pb-actions'),
  uiRow: bar('pb-row'),
  uiButton: button,
  uiMenu: menu,
  uiMenuItem: menuItem,
};
