/**
 * @module render/html
 * The only way the renderer writes markup: text and attribute values are escaped here, URLs pass
 * `safeHref` (https only: a tree is validated before it reaches a member, but the renderer never
 * trusts that, since the playground draws trees that failed validation). Nothing else builds tags.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an element's content or a quoted attribute value. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** An https URL as written, or null: `javascript:`, `data:` and relative URLs never become links. */
export function safeHref(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

export type AttrValue = string | number | boolean | null | undefined;

/** ` name="value"` pairs; `true` writes a bare attribute, `false`, null and undefined leave it out. */
export function attrs(values: Readonly<Record<string, AttrValue>>): string {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    if (value === false || value === null || value === undefined) continue;
    out += value === true ? ` ${name}` : ` ${name}="${esc(value)}"`;
  }
  return out;
}

const VOID = new Set(['img', 'input', 'br', 'hr']);

/**
 * One element. `children` is markup already built by this module (never raw input).
 * @example
 * el('button', { type: 'button', 'data-ref': 'a0' }, esc('Approve'))
 */
export function el(tag: string, values: Readonly<Record<string, AttrValue>>, children = ''): string {
  return VOID.has(tag) ? `<${tag}${attrs(values)}>` : `<${tag}${attrs(values)}>${children}</${tag}>`;
}

/** Class names from a list, falsy entries left out. */
export function cls(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}
