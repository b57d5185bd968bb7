/**
 * @module names/names
 * The one rule for the characters of a name: who or what a member sees (a workspace, member,
 * circle, API key or app, a stream event's persona, a person or a file in a block). A name is an
 * identity, so it must show what it is: nothing in it may change how the text around it is shown,
 * hide inside it, or reach a terminal as a command. Decided in docs/decisions/hardening.md.
 *
 * Refused, in this order (the first problem is the one told):
 * 1. control characters (`\p{Cc}`: tab, line feed, ESC and so ANSI escape sequences, DEL, the C1
 *    range with its one-character CSI) and the line and paragraph separators (U+2028, U+2029);
 * 2. white space at the start or the end (inside, a space is a name's own: "Ada Lovelace");
 * 3. bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder the text
 *    around them ("Trojan Source");
 * 4. any other format or default-ignorable character (zero-width space, word joiner, BOM, soft
 *    hyphen, Hangul fillers, invisible operators, tags, ...) and the blank braille pattern, except
 *    what scripts and emoji need to be written:
 *    - the zero-width joiner and non-joiner between two visible characters (👨‍👩‍👧, Persian
 *      and Indic spelling), never at an edge or beside a space or another invisible character;
 *    - variation selectors (and Mongolian free variation selectors) after a visible character
 *      (❤️, 1️⃣);
 *    - tag characters inside an emoji tag sequence (🏴 + tags + cancel tag: subdivision flags);
 *    - the bidi marks (U+200E, U+200F, U+061C): they only hint a direction, which right-to-left
 *      names need, and reorder nothing around them.
 *
 * Whether a name has visible text at all, and its length, are checked by each schema beside this.
 */

const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const EDGE_SPACE = /^[\s\p{Z}]|[\s\p{Z}]$/u;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/** A character that shows by itself: not a space, control, format or default-ignorable one. */
const SHOWN = String.raw`[^\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]`;
const JOINER_INSIDE = new RegExp(String.raw`(?<=${SHOWN})[\u200C\u200D](?=${SHOWN})`, 'gu');
// After a base character or a combining mark on one (keycaps: "1" U+FE0F U+20E3).
const SELECTOR_AFTER_BASE = new RegExp(String.raw`(?<=${SHOWN})[\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0100}-\u{E01EF}]`, 'gu');
const EMOJI_TAGS = /(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const BIDI_MARKS = /[\u200E\u200F\u061C]/g;
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;

const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * What is wrong with the characters of `name`, or null when nothing is.
 * @example nameProblem('Ada') // null
 * @example nameProblem('a\u001b[31mb') // 'Names may not contain control characters ...'
 * @example nameProblem('Family 👨\u200D👩\u200D👧') // null
 */
export function nameProblem(name: string): string | null {
  if (PLAIN.test(name)) return null; // Printable ASCII with no space at an edge: most names.
  if (CONTROL.test(name)) return 'Names may not contain control characters (tabs, line breaks, escape sequences)';
  if (EDGE_SPACE.test(name)) return 'Names may not start or end with a space';
  if (BIDI_CONTROL.test(name)) return 'Names may not contain bidi embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069)';
  // Selectors go first, so that a joiner after one (🏳️‍🌈: flag, U+FE0F, ZWJ, rainbow) meets its base.
  const rest = name.replace(EMOJI_TAGS, '').replace(SELECTOR_AFTER_BASE, '').replace(JOINER_INSIDE, '').replace(BIDI_MARKS, '');
  const hidden = INVISIBLE.exec(rest);
  if (hidden !== null) return `Names may not contain invisible characters (${codePoint(hidden[0])})`;
  return null;
}

/**
 * True when `name` passes the rule of `nameProblem`.
 * @example isCleanName('Olive') // true; isCleanName('Ol\u200Bive') // false
 */
export function isCleanName(name: string): boolean {
  return nameProblem(name) === null;
}
