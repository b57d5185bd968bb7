/**
 * @module catalog/builders/core
 * What the builders share: draft nodes (catalog nodes whose action attributes still hold the
 * action itself), action calls, inline text, and the small helpers every builder uses.
 */
import type { UiMark, UiTextNode } from '../kit/types.ts';

const ACTION_CALL = Symbol.for('platform.catalog.actionCall');

/**
 * Type-only (never set at run time): the action names a draft or call may name, `N`. It lets a
 * block's `render` (and its actions' results) hand its own action names down to the builders as
 * a contextual type, so `ui.button({ action: 'typo' })` there is a type error at the typo; built
 * apart, `N` is `string`. A method, so it is bivariant: drafts of any names fit where a block's
 * are expected, and a block's fit where any are (docs/decisions/authoring.md).
 */
export declare const ACTION_NAMES: unique symbol;

/** An action as written by the author; `renderTree` swaps it for a `{ ref }` and a table entry. */
export interface ActionCall<N extends string = string> {
  readonly [ACTION_CALL]: true;
  readonly name: string;
  readonly args?: unknown;
  [ACTION_NAMES]?(name: N): void;
}

/** A node built by `ui.*`, ready for `renderTree`; `N`: the action names it may use (see `ACTION_NAMES`). */
export interface Draft<N extends string = string> {
  readonly type: string;
  readonly attrs?: Readonly<Record<string, unknown>>;
  readonly content?: readonly Draft[];
  [ACTION_NAMES]?(name: N): void;
}

/**
 * Children of a container: drafts of the names the container's own context allows. `NoInfer`:
 * the names come from where the container is used (a block's `render`), never from its children,
 * so the context reaches every builder inside.
 */
export type Children<N extends string> = readonly Draft<NoInfer<N>>[];

/** A text run: plain text, or a node from `ui.span`, `ui.bold`, `ui.link`, … */
export type Inline = string | UiTextNode;

/** Where a builder takes an action: its name (with `args` beside it), or `ui.action(name, args)`; `N`: the names allowed there. */
export type ActionInput<N extends string = string> = N | ActionCall<N>;

/** Who sees a flow element: member ids (1 to 50). */
export interface WithAudience {
  audience?: readonly string[];
}

/**
 * An action with its arguments, for any place a builder takes one.
 * @example ui.select({ name: 'owner', label: 'Owner', search: ui.action('find-owner', { team: 'ops' }) })
 */
export function action<N extends string = string>(name: NoInfer<N>, args?: unknown): ActionCall<N> {
  return args === undefined ? { [ACTION_CALL]: true, name } : { [ACTION_CALL]: true, name, args };
}

export function isActionCall(value: unknown): value is ActionCall {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ACTION_CALL] === true;
}

/** An action input with optional separate `args` as one call. */
export function toCall(input: ActionInput | undefined, args?: unknown): ActionCall | undefined {
  if (input === undefined) return undefined;
  return typeof input === 'string' ? action(input, args) : input;
}

/** Attrs without the keys left undefined, so drafts serialize exactly as they validate. */
export function compact(attrs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined) out[key] = value;
  return out;
}

/** A draft node; attrs and content are left out when empty. */
export function node(type: string, attrs: Record<string, unknown> = {}, content?: readonly Draft[]): Draft {
  const clean = compact(attrs);
  return {
    type,
    ...(Object.keys(clean).length > 0 ? { attrs: clean } : {}),
    ...(content && content.length > 0 ? { content } : {}),
  };
}

/** The `audience` attr from a list of member ids. */
export function audienceOf(options: WithAudience | undefined): { members: string[] } | undefined {
  return options?.audience ? { members: [...options.audience] } : undefined;
}

/** Text runs from strings and spans; empty strings are dropped (text nodes are never empty). */
export function inline(content: Inline | readonly Inline[]): UiTextNode[] {
  const runs = Array.isArray(content) ? content : [content as Inline];
  return runs.filter((r) => r !== '').map((r) => (typeof r === 'string' ? { type: 'text', text: r } : r));
}

export interface SpanOptions {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  /** Makes the run a link (an `https://` URL). */
  href?: string;
}

/**
 * A run of text with formatting.
 * @example ui.text(['Deployed by ', ui.span('Ada', { bold: true }), ' — ', ui.span('logs', { href: 'https://ci.example.com/42' })])
 */
export function span(text: string, options: SpanOptions = {}): UiTextNode {
  const marks: UiMark[] = [];
  if (options.bold) marks.push({ type: 'bold' });
  if (options.italic) marks.push({ type: 'italic' });
  if (options.strike) marks.push({ type: 'strike' });
  if (options.code) marks.push({ type: 'code' });
  if (options.href !== undefined) marks.push({ type: 'link', attrs: { href: options.href } });
  return marks.length > 0 ? { type: 'text', text, marks } : { type: 'text', text };
}

/** Bold text. @example ui.bold('urgent') */
export const bold = (text: string): UiTextNode => span(text, { bold: true });
/** Italic text. @example ui.italic('draft') */
export const italic = (text: string): UiTextNode => span(text, { italic: true });
/** Struck-through text (never a link). @example ui.strike('v1.2') */
export const strike = (text: string): UiTextNode => span(text, { strike: true });
/** Inline code. @example ui.code('npm test') */
export const code = (text: string): UiTextNode => span(text, { code: true });
/** A link. @example ui.link('the PR', 'https://git.example.com/pr/7') */
export const link = (text: string, href: string): UiTextNode => span(text, { href });

/** `(children)` or `(options, children)`: containers take their options first when they have any. */
export function split<O>(a: O | readonly Draft[], b?: readonly Draft[]): [O | undefined, readonly Draft[]] {
  return Array.isArray(a) ? [undefined, a as readonly Draft[]] : [a as O, b ?? []];
}
