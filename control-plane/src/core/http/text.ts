/**
 * @module core/http/text
 * Lengths "as people see them": grapheme clusters (Intl.Segmenter), so an emoji with modifiers or a
 * letter with accents counts as one.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

/**
 * Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder how the text
 * around them is shown, so a name could display as another member's or an app's ("Trojan Source").
 * The marks U+200E, U+200F and U+061C are left alone: they only hint a direction, which right-to-left
 * names need.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

/** Whether the text has a bidi control that reorders display (see BIDI_CONTROLS). */
export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}

/**
 * Whether anything would show: some character that is not whitespace, a separator, a control or an
 * invisible format character (zero-width space, joiners, word joiner, BOM, bidi marks).
 */
export function hasVisibleCharacter(text: string): boolean {
  return /[^\p{White_Space}\p{Z}\p{Cc}\p{Cf}]/u.test(text);
}
