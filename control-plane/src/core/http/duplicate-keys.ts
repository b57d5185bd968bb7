/**
 * @module core/http/duplicate-keys
 * Finds a key written twice in one JSON object. `JSON.parse` keeps the last of them silently
 * (`{"visibility":"private","visibility":"public"}` is a public circle), and two readers of one body
 * can disagree about which one counts, so requests, which are strict, refuse them
 * (docs/decisions/hardening.md).
 *
 * Runs on every JSON body, after `JSON.parse` has accepted the text, so it can trust the text's
 * grammar. Two steps, the second only when the first cannot rule a repeat out:
 * - **count**: outside strings, valid JSON has exactly one `:` per object member, repeats included,
 *   while the parsed value holds each object's distinct keys once. When the text's members equal the
 *   value's keys (the body reader's string check counts them on its walk), no key repeats. This
 *   step only skips strings (`indexOf`, native speed) and builds nothing: the price of every body.
 * - **scan**: follows strings, brackets and commas, keeping each object's keys, to name the repeat's
 *   path. A key is decoded only when it holds an escape, so that `"a"` and `"\u0061"` are one key,
 *   as they are to the parser.
 */

type Path = Array<string | number>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** One open object or array; `at` is the key or index of the member being read. */
interface Frame {
  object: boolean;
  at: string | number;
  /** Keys seen so far (objects only); made at the second key, as most objects are small. */
  keys: Set<string> | null;
  first: string | null;
  /** Objects: whether the next string is a key. */
  expectKey: boolean;
}

/** The index of the quote closing the string opened at `open`. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Records `key` in `frame`; false when the object already has it. */
function addKey(frame: Frame, key: string): boolean {
  if (frame.first === null) {
    frame.first = key;
    return true;
  }
  if (frame.keys === null) {
    if (frame.first === key) return false;
    frame.keys = new Set([frame.first, key]);
    return true;
  }
  if (frame.keys.has(key)) return false;
  frame.keys.add(key);
  return true;
}

/** Object members written in `text` (the `:`s outside strings), repeats included. */
export function memberCount(text: string): number {
  let members = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf('"', from);
    const stop = open === -1 ? text.length : open;
    for (let i = from; i < stop; i++) if (text.charCodeAt(i) === COLON) members++;
    if (open === -1) return members;
    from = closingQuote(text, open) + 1;
  }
}

function pathOf(stack: Frame[]): Path {
  // The root frame's `at` is a placeholder: paths start at the root's members.
  return stack.slice(1).map((frame) => frame.at);
}

/**
 * The path of the first key that repeats one before it in the same object (document order), or null.
 * `text` must be JSON that `JSON.parse` accepted; `keys`, when known, is how many keys its parsed
 * value holds (all objects together), which lets a text without repeats skip the scan.
 * @example duplicateKeyPath('{"a":{"b":1,"b":2}}') // ['a', 'b']
 */
export function duplicateKeyPath(text: string, keys?: number): Path | null {
  if (keys !== undefined && memberCount(text) === keys) return null;
  // A frame for the root value keeps the loop free of empty-stack checks.
  const stack: Frame[] = [{ object: false, at: 0, keys: null, first: null, expectKey: false }];
  let top = stack[0]!;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = closingQuote(text, i);
      if (top.object && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        top.at = key;
        if (!addKey(top, key)) return pathOf(stack);
        top.expectKey = false;
      }
      i = end;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      top = { object: code === OPEN_OBJECT, at: 0, keys: null, first: null, expectKey: code === OPEN_OBJECT };
      stack.push(top);
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      stack.pop();
      top = stack[stack.length - 1]!;
    } else if (code === COMMA) {
      if (top.object) top.expectKey = true;
      else (top.at as number)++;
    }
  }
  return null;
}
