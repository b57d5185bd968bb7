/**
 * Text as people see it: the fast path for simple scripts counts exactly what Intl.Segmenter
 * counts, and visibility ignores whitespace, joiners and blank-looking characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { graphemeLength, hasVisibleText, labelKey } from '../../../sandbox-lib/src/catalog/kit/measure.ts';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const truth = (s: string) => [...segmenter.segment(s)].length;

// Simple characters mixed with every kind that joins graphemes.
const unit = fc.constantFrom(
  'a', ' ', '\n', '\r', '\t', 'é', 'ß', 'Ω', 'ж', '—', '€', 'あ', 'カ', '語', '한',
  '\u0301', '\u200d', '\ufe0f', '👍', '🏽', '🇫', '🇷', '\u1100', '\u1161', '\u11a8', '\u3099', '\u0915', '\u094d', '\u00ad', '\u0483',
);

describe('graphemeLength', () => {
  it('agrees with Intl.Segmenter on any mix of simple and joining characters', () => {
    fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), (s) => {
      expect(graphemeLength(s)).toBe(truth(s));
    }), { numRuns: 2000 });
  });

  it('with a cap, tells over from within exactly', () => {
    fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), fc.nat(40), (s, cap) => {
      expect(graphemeLength(s, cap) > cap).toBe(truth(s) > cap);
    }), { numRuns: 1000 });
  });
});

describe('hasVisibleText', () => {
  it('is false for whitespace, joiners, marks alone and blank letters', () => {
    for (const s of ['', ' ', '\t\n', '\u200b', '\u200d', '\u00a0', '\u3000', '\u3164', '\u2800', '\u0301', '\ufe0f', '\u2028']) expect(hasVisibleText(s)).toBe(false);
    for (const s of ['a', ' x ', '👍', '語', '-', '0', 'é']) expect(hasVisibleText(s)).toBe(true);
  });
});

describe('labelKey', () => {
  it('ignores case and extra spaces', () => {
    expect(labelKey('  Approve   NOW ')).toBe(labelKey('approve now'));
    expect(labelKey('e\u0301')).toBe(labelKey('é'));
    expect(labelKey('Approve')).not.toBe(labelKey('Approved'));
  });
});
