/**
 * @module catalog/kit/measure
 * Text as people see it: lengths in graphemes (`Intl.Segmenter`) and whether anything is visible.
 */

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

// Characters that never join a neighbour into one grapheme (no combining marks, joiners, variation
// selectors, surrogates, jamo or Indic scripts): where a string holds only these, one code unit is
// one grapheme and the segmenter can be skipped. Printable ASCII with tab and newline ("\r\n" is
// one grapheme, so carriage returns take the slow path), Latin-1 and Latin Extended, Greek and
// Cyrillic letters, general punctuation and currency signs, kana (without the combining voicing
// marks), CJK ideographs and precomposed Hangul syllables.
const SIMPLE = /^[\x20-\x7e\t\n\u00a0-\u02ff\u0370-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u20a0-\u20c0\u3041-\u3096\u309b-\u30ff\u4e00-\u9fff\uac00-\ud7a3]*$/;

/**
 * Length in graphemes, counted only up to `cap + 1` (enough to tell "over the cap" from "within").
 * Graphemes never outnumber UTF-16 code units, so a string no longer than the cap needs no segmenting
 * when only the comparison matters; callers that need the exact count pass no cap.
 */
export function graphemeLength(text: string, cap = Number.POSITIVE_INFINITY): number {
  if (SIMPLE.test(text)) return text.length;
  let count = 0;
  for (const _ of segmenter.segment(text)) {
    count++;
    if (count > cap) break;
  }
  return count;
}

// Whitespace, control and format characters, lone combining marks, and the blank-looking letters
// (Hangul fillers, braille blank) draw nothing by themselves.
const VISIBLE = /[^\s\p{Cc}\p{Cf}\p{Z}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/u;

/** True when the text draws at least one visible character. */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

/** Labels compare with case and extra spaces ignored. */
export function labelKey(label: string): string {
  return label.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}
