/**
 * @module catalog/builders/structure
 * Builders for the frame of a block and its containers.
 */
import { CATALOG_VERSION } from '../spec/registry.ts';
import { type Children, type Draft, type Inline, type WithAudience, audienceOf, inline, node, split } from './core.ts';

export interface BlockOptions {
  /** Plain text, at most 280 characters, shown where the block cannot be drawn (notifications, search). */
  summary: string;
}

/**
 * The root of a tree: header, body, one actions bar, footer, in that order.
 * @example ui.block({ summary: 'Deploy #42 is waiting' }, [ui.header({ title: 'Deploy #42' }), ui.actions([ui.button({ label: 'Approve', action: 'approve' })])])
 */
export function block<N extends string = string>(options: BlockOptions, children: Children<N>): Draft<N> {
  return node('uiBlock', { catalog: CATALOG_VERSION, summary: options.summary }, children);
}

export interface HeaderOptions {
  title: Inline | readonly Inline[];
  /** Makes the whole header a link; its title then holds no links. */
  href?: string;
  /** Short text at the end of the header line (24 characters). */
  trailing?: string;
}

/**
 * The block's title line, optionally followed by up to 3 badges, statuses or icons.
 * @example ui.header({ title: 'Invoice 1043', trailing: '2h ago' }, [ui.status({ label: 'Paid', tone: 'success' })])
 */
export function header(options: HeaderOptions, adornments: readonly Draft[] = []): Draft {
  const title = node('uiHeaderTitle', {}, inline(options.title));
  return node('uiHeader', { href: options.href, trailing: options.trailing }, [title, ...adornments]);
}

/**
 * The block's last line of small text (120 characters).
 * @example ui.footer(['Synced from ', ui.link('Linear', 'https://linear.app')])
 */
export function footer(text: Inline | readonly Inline[]): Draft {
  return node('uiFooter', {}, inline(text));
}

export interface SectionOptions extends WithAudience {
  title?: string;
  /** Name a toggle button can point at (`ui.toggleButton({ target })`). */
  handle?: string;
  collapsed?: boolean;
}

/**
 * A titled group of flow elements, at block, tab or form level only.
 * @example ui.section({ title: 'Details', collapsed: true }, [ui.text('Runs every hour.')])
 */
export function section<N extends string = string>(children: Children<N>): Draft<N>;
export function section<N extends string = string>(options: SectionOptions, children: Children<N>): Draft<N>;
export function section(a: SectionOptions | readonly Draft[], b?: readonly Draft[]): Draft {
  const [o, children] = split<SectionOptions>(a, b);
  return node('uiSection', { title: o?.title, handle: o?.handle, collapsed: o?.collapsed, audience: audienceOf(o) }, children);
}

/**
 * Two or three columns side by side.
 * @example ui.columns([ui.column([ui.text('Left')]), ui.column([ui.text('Right')])])
 */
export function columns<N extends string = string>(children: Children<N>, options?: WithAudience): Draft<N> {
  return node('uiColumns', { audience: audienceOf(options) }, children);
}

export interface ColumnOptions {
  width?: 'auto' | 'fill';
}

/**
 * One column of a `ui.columns`; holds flow elements that fit a narrow space.
 * @example ui.column({ width: 'fill' }, [ui.facts([ui.fact({ label: 'Owner', value: 'Ada' })])])
 */
export function column<N extends string = string>(children: Children<N>): Draft<N>;
export function column<N extends string = string>(options: ColumnOptions, children: Children<N>): Draft<N>;
export function column(a: ColumnOptions | readonly Draft[], b?: readonly Draft[]): Draft {
  const [o, children] = split<ColumnOptions>(a, b);
  return node('uiColumn', { width: o?.width }, children);
}

export interface TabsOptions extends WithAudience {
  title?: string;
}

/**
 * Two to six tabs; never inside other tabs.
 * @example ui.tabs([ui.tab({ label: 'Summary' }, [ui.text('…')]), ui.tab({ label: 'Logs' }, [ui.text('…')])])
 */
export function tabs<N extends string = string>(children: Children<N>): Draft<N>;
export function tabs<N extends string = string>(options: TabsOptions, children: Children<N>): Draft<N>;
export function tabs(a: TabsOptions | readonly Draft[], b?: readonly Draft[]): Draft {
  const [o, children] = split<TabsOptions>(a, b);
  return node('uiTabs', { title: o?.title, audience: audienceOf(o) }, children);
}

export interface TabOptions {
  label: string;
  icon?: string;
}

/**
 * One tab of a `ui.tabs`.
 * @example ui.tab({ label: 'Logs', icon: 'terminal' }, [ui.prose([ui.codeBlock('npm test')])])
 */
export function tab<N extends string = string>(options: TabOptions, children: Children<N>): Draft<N> {
  return node('uiTab', { label: options.label, icon: options.icon }, children);
}

export interface StackOptions extends WithAudience {
  direction?: 'vertical' | 'horizontal';
  gap?: 'small' | 'medium' | 'large';
}

/**
 * Flow elements kept together (and shown to one audience at once); never inside another stack.
 * @example ui.stack({ audience: ['mem_1'] }, [ui.text('Only you see this.')])
 */
export function stack<N extends string = string>(children: Children<N>): Draft<N>;
export function stack<N extends string = string>(options: StackOptions, children: Children<N>): Draft<N>;
export function stack(a: StackOptions | readonly Draft[], b?: readonly Draft[]): Draft {
  const [o, children] = split<StackOptions>(a, b);
  return node('uiStack', { direction: o?.direction, gap: o?.gap, audience: audienceOf(o) }, children);
}
