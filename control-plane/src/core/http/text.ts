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
 * Whether anything would show: some character that is not whitespace, a separator, a control or an
 * invisible format character (zero-width space, joiners, word joiner, BOM, bidi marks).
 */
export function hasVisibleCharacter(text: string): boolean {
  return /[^\p{White_Space}\p{Z}\p{Cc}\p{Cf}]/u.test(text);
}
