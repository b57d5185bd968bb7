/**
 * @module catalog/builders/actions
 * Builders for things to click. Actions are given by name (and `args`); `renderTree` turns them
 * into references and the action table.
 */
import { type ActionInput, type Children, type Draft, type WithAudience, audienceOf, node, toCall } from './core.ts';

export interface Confirm {
  title: string;
  body?: string;
}

interface ButtonBase extends WithAudience {
  label: string;
  icon?: string;
}

export interface ActionButtonOptions<N extends string = string> extends ButtonBase {
  /** The action's name as the block defines it, or `ui.action(name, args)`. */
  action: ActionInput<N>;
  args?: unknown;
  intent?: 'default' | 'primary' | 'destructive';
  /** Required when `intent` is `destructive`. */
  confirm?: Confirm;
}

function actionButton(buttonType: 'action' | 'submit', o: ActionButtonOptions): Draft {
  return node('uiButton', {
    buttonType,
    label: o.label,
    action: toCall(o.action, o.args),
    intent: o.intent,
    confirm: o.confirm,
    icon: o.icon,
    audience: audienceOf(o),
  });
}

/**
 * A button that runs one of the block's actions.
 * @example ui.button({ label: 'Delete', action: 'delete', args: { id: 7 }, intent: 'destructive', confirm: { title: 'Delete this run?' } })
 */
export function button<N extends string = string>(options: ActionButtonOptions<NoInfer<N>>): Draft<N> {
  return actionButton('action', options);
}

/**
 * The submit button that ends a form.
 * @example ui.form([ui.textInput({ name: 'title', label: 'Title' }), ui.submit({ label: 'Create', action: 'create' })])
 */
export function submit<N extends string = string>(options: ActionButtonOptions<NoInfer<N>>): Draft<N> {
  return actionButton('submit', options);
}

/**
 * A button that opens a link.
 * @example ui.linkButton({ label: 'Open in CI', href: 'https://ci.example.com/runs/42' })
 */
export function linkButton(options: ButtonBase & { href: string; intent?: 'default' | 'primary' }): Draft {
  return node('uiButton', { buttonType: 'link', label: options.label, href: options.href, intent: options.intent, icon: options.icon, audience: audienceOf(options) });
}

/**
 * A button that copies text to the clipboard.
 * @example ui.copyButton({ label: 'Copy ID', copyText: 'run_8f2c' })
 */
export function copyButton(options: ButtonBase & { copyText: string }): Draft {
  return node('uiButton', { buttonType: 'copy', label: options.label, copyText: options.copyText, icon: options.icon, audience: audienceOf(options) });
}

/**
 * A button that opens or closes the section with `handle` equal to `target`.
 * @example ui.toggleButton({ label: 'Show log', target: 'log' })
 */
export function toggleButton(options: ButtonBase & { target: string }): Draft {
  return node('uiButton', { buttonType: 'toggle', label: options.label, target: options.target, icon: options.icon, audience: audienceOf(options) });
}

/**
 * The block's button bar: up to 5 buttons, then optionally one menu.
 * @example ui.actions([ui.button({ label: 'Approve', action: 'approve' }), ui.menu({ label: 'More' }, [ui.menuItem({ label: 'Snooze', action: 'snooze' })])])
 */
export function actions<N extends string = string>(children: Children<N>, options?: WithAudience): Draft<N> {
  return node('uiActions', { audience: audienceOf(options) }, children);
}

export interface MenuOptions extends WithAudience {
  label: string;
  icon?: string;
}

/**
 * A menu of 1 to 12 items.
 * @example ui.menu({ label: 'More' }, [ui.menuItem({ label: 'Archive', action: 'archive' })])
 */
export function menu<N extends string = string>(options: MenuOptions, items: Children<N>): Draft<N> {
  return node('uiMenu', { label: options.label, icon: options.icon, audience: audienceOf(options) }, items);
}

export interface MenuItemOptions<N extends string = string> {
  label: string;
  /** Either an action … */
  action?: ActionInput<N>;
  args?: unknown;
  /** … or a link. */
  href?: string;
  intent?: 'default' | 'primary' | 'destructive';
  confirm?: Confirm;
  icon?: string;
}

/**
 * One item of a menu: runs an action or opens a link.
 * @example ui.menuItem({ label: 'Docs', href: 'https://docs.example.com' })
 */
export function menuItem<N extends string = string>(options: MenuItemOptions<NoInfer<N>>): Draft<N> {
  return node('uiMenuItem', {
    label: options.label,
    action: toCall(options.action, options.args),
    href: options.href,
    intent: options.intent,
    confirm: options.confirm,
    icon: options.icon,
  });
}

/**
 * A line of one or two texts or avatar stacks, then up to 3 buttons and menus.
 * @example ui.row([ui.text('3 reviewers'), ui.button({ label: 'Remind', action: 'remind' })])
 */
export function row<N extends string = string>(children: Children<N>, options?: WithAudience): Draft<N> {
  return node('uiRow', { audience: audienceOf(options) }, children);
}
