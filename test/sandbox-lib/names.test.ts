/**
 * The one rule for the characters of names (`nameProblem`, sandbox-lib/src/names/names.ts), one row
 * per case: what it refuses (controls and so ANSI escapes, spaces at an edge, bidi controls, every
 * other format or invisible character) and what scripts and emoji need it to keep.
 */
import { describe, expect, it } from 'vitest';
import { nameProblem } from '@platform/sdk';

const CONTROL = /control characters/;
const EDGE = /start or end with a space/;
const BIDI = /bidi embedding, override or isolate/;
const invisible = (codePoint: string) => new RegExp(`invisible characters \\(${codePoint.replace('+', '\\+')}\\)`);

describe('nameProblem refuses', () => {
  it.each([
    ['an ANSI colour escape', 'a\u001b[31mb', CONTROL],
    ['a bare ESC', '\u001bOlive', CONTROL],
    ['the one-character CSI of C1', 'a\u009b31mb', CONTROL],
    ['DEL', 'Olive\u007f', CONTROL],
    ['a tab', 'Ada\tLovelace', CONTROL],
    ['a line feed', 'Ada\nLovelace', CONTROL],
    ['a carriage return', 'Ada\r', CONTROL],
    ['a line separator', 'Ada\u2028Lovelace', CONTROL],
    ['a paragraph separator', 'Ada\u2029', CONTROL],
    ['a leading space', ' Olive', EDGE],
    ['a trailing space', 'Olive ', EDGE],
    ['a trailing no-break space', 'Olive\u00a0', EDGE],
    ['a leading ideographic space', '\u3000山田', EDGE],
    ['a trailing em space', 'Olive\u2003', EDGE],
    ['only spaces', '   ', EDGE],
    ['a right-to-left override', 'admin\u202Egnp.exe', BIDI],
    ['a left-to-right isolate', '\u2066Olive\u2069', BIDI],
    ['a pop directional formatting', 'Olive\u202C', BIDI],
    ['a zero-width space inside', 'Ol\u200Bive', invisible('U+200B')],
    ['a zero-width space at the end', 'Olive\u200B', invisible('U+200B')],
    ['a word joiner', 'Ol\u2060ive', invisible('U+2060')],
    ['a byte order mark inside', 'Ol\uFEFFive', invisible('U+FEFF')],
    ['a leading byte order mark (white space to JavaScript)', '\uFEFFOlive', EDGE],
    ['a soft hyphen', 'Oli\u00ADve', invisible('U+00AD')],
    ['a Hangul filler', 'a\u3164b', invisible('U+3164')],
    ['a halfwidth Hangul filler', '\uFFA0', invisible('U+FFA0')],
    ['the blank braille pattern', 'a\u2800b', invisible('U+2800')],
    ['a combining grapheme joiner', 'a\u034Fb', invisible('U+034F')],
    ['an invisible times', 'a\u2062b', invisible('U+2062')],
    ['an interlinear annotation anchor', 'a\uFFF9b', invisible('U+FFF9')],
    ['a tag character outside a flag', 'Olive\u{E0041}', invisible('U+E0041')],
    ['a zero-width joiner at the end', 'Olive\u200D', invisible('U+200D')],
    ['a zero-width joiner at the start', '\u200DOlive', invisible('U+200D')],
    ['a zero-width non-joiner beside a space', 'Ada \u200CLovelace', invisible('U+200C')],
    ['two joiners in a row', 'a\u200D\u200Db', invisible('U+200D')],
    ['a variation selector with nothing before it', '\uFE0FOlive', invisible('U+FE0F')],
  ])('%s', (_name, name, problem) => {
    expect(nameProblem(name)).toMatch(problem);
  });
});

describe('nameProblem keeps', () => {
  it.each([
    ['plain ASCII', 'Ada Lovelace'],
    ['one character', 'A'],
    ['accents', 'Zoë Ðurić'],
    ['a family, emoji joined by zero-width joiners', 'Family 👨\u200D👩\u200D👧'],
    ['a rainbow flag: a variation selector, then a joiner', '🏳\uFE0F\u200D🌈'],
    ['a skin tone before a joiner', '👩🏽\u200D💻 dev'],
    ['a keycap', '1\uFE0F\u20E3 first'],
    ['a red heart with its variation selector', 'Team \u2764\uFE0F'],
    ['a subdivision flag (tag characters)', 'Wales \u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}'],
    ['a Persian word with a zero-width non-joiner', 'می\u200Cخواهم'],
    ['a Sinhala conjunct with a zero-width joiner', 'ශ්\u200Dරී'],
    ['a Hebrew name with a right-to-left mark', 'שלום\u200F 2'],
    ['an Arabic letter mark', 'محمد\u061C 3'],
    ['a name ending with a left-to-right mark', 'Olive\u200E'],
    ['a Japanese name with an ideographic space inside', '山田\u3000太郎'],
    ['a Mongolian free variation selector', 'ᠠ\u180Bᠡ'],
  ])('%s', (_name, name) => {
    expect(nameProblem(name)).toBeNull();
  });
});
