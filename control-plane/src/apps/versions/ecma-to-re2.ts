/**
 * @module apps/versions/ecma-to-re2
 * Rewrites a JSON Schema regular expression (ECMA-262, read with the `u` flag as ajv reads it) into
 * RE2 syntax with the same meaning, or refuses it when RE2 cannot express it. The source must
 * already compile as `new RegExp(source, 'u')`: the reader relies on that (no lone `{`, `}` or `]`,
 * known escapes only, ranges between single characters) and does not check ECMA syntax again.
 *
 * Where the dialects agree on a spelling but not on its meaning, the output spells out ECMA's:
 * - `.` is any code point but ECMA's line terminators (\n \r U+2028 U+2029); RE2's `.` only stops at \n.
 * - `\s` and `\S` are ECMA's white space and line terminators; RE2's `\s` is ASCII `[\t\n\f\r ]`.
 * - `\p{…}` names general categories by any ECMA alias (`Letter`, `gc=Lu`); RE2 knows short names only.
 * - Every literal character other than A-Z, a-z, 0-9 becomes `\x{…}`, so RE2-only syntax
 *   (`\Q…\E`, `[[:alpha:]]`, `\z`, octal `\1`) can never appear by accident.
 * - Groups become non-capturing: ajv only asks whether a string matches.
 * `\d`, `\w`, `\b` (ASCII in both), `^`, `$` (input edges in both without the `m` flag),
 * alternation and quantifiers pass through.
 *
 * Refused: backreferences (`\1`, `\k<name>`), lookahead and lookbehind, and modifiers (`(?i:…)`).
 */

export class UnsupportedPatternError extends Error {
  /** The pattern as the schema wrote it. */
  readonly pattern: string;
  constructor(pattern: string, message: string) {
    super(message);
    this.name = 'UnsupportedPatternError';
    this.pattern = pattern;
  }
}

const LINEAR = 'schema patterns run on a linear-time engine (RE2), which has no backtracking';

/** ECMA-262 WhiteSpace and LineTerminator code points (`\s` with the `u` flag). */
const WHITE_SPACE = [0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680, ...range(0x2000, 0x200a), 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];
const WHITE_SPACE_ITEMS = '\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
const DOT = '[^\\x{A}\\x{D}\\x{2028}\\x{2029}]';
const ALL_ITEMS = '\\x{0}-\\x{10FFFF}';
const NOTHING = `[^${ALL_ITEMS}]`;

/** Every ECMA alias of a general category value → RE2's (short) name. */
const GENERAL_CATEGORY: Readonly<Record<string, string>> = Object.fromEntries(
  ([
    ['C', 'Other'], ['Cc', 'Control', 'cntrl'], ['Cf', 'Format'], ['Cn', 'Unassigned'], ['Co', 'Private_Use'],
    ['Cs', 'Surrogate'], ['L', 'Letter'], ['LC', 'Cased_Letter'], ['Ll', 'Lowercase_Letter'], ['Lm', 'Modifier_Letter'],
    ['Lo', 'Other_Letter'], ['Lt', 'Titlecase_Letter'], ['Lu', 'Uppercase_Letter'], ['M', 'Mark', 'Combining_Mark'],
    ['Mc', 'Spacing_Mark'], ['Me', 'Enclosing_Mark'], ['Mn', 'Nonspacing_Mark'], ['N', 'Number'],
    ['Nd', 'Decimal_Number', 'digit'], ['Nl', 'Letter_Number'], ['No', 'Other_Number'], ['P', 'Punctuation', 'punct'],
    ['Pc', 'Connector_Punctuation'], ['Pd', 'Dash_Punctuation'], ['Pe', 'Close_Punctuation'], ['Pf', 'Final_Punctuation'],
    ['Pi', 'Initial_Punctuation'], ['Po', 'Other_Punctuation'], ['Ps', 'Open_Punctuation'], ['S', 'Symbol'],
    ['Sc', 'Currency_Symbol'], ['Sk', 'Modifier_Symbol'], ['Sm', 'Math_Symbol'], ['So', 'Other_Symbol'], ['Z', 'Separator'],
    ['Zl', 'Line_Separator'], ['Zp', 'Paragraph_Separator'], ['Zs', 'Space_Separator'],
  ] as string[][]).flatMap(([short, ...aliases]) => [short!, ...aliases].map((alias) => [alias, short!])),
);

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const hex = (cp: number): string => `\\x{${cp.toString(16).toUpperCase()}}`;
const literal = (cp: number): string => ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? String.fromCodePoint(cp) : hex(cp));

/** One item of a character class: a code point, a set RE2 can write inside `[…]`, or `\S`. */
type ClassItem = { cp: number } | { items: string } | { nonSpace: true };

class Reader {
  readonly source: string;
  at = 0;
  constructor(source: string) {
    this.source = source;
  }
  done(): boolean {
    return this.at >= this.source.length;
  }
  peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }
  /** The next code point (a surrogate pair is one). */
  next(): number {
    const cp = this.source.codePointAt(this.at)!;
    this.at += cp > 0xffff ? 2 : 1;
    return cp;
  }
  /** Everything up to `end` (consumed, `end` included), without `end`. */
  until(end: string): string {
    const stop = this.source.indexOf(end, this.at);
    const text = this.source.slice(this.at, stop);
    this.at = stop + 1;
    return text;
  }
  refuse(message: string): never {
    throw new UnsupportedPatternError(this.source, message);
  }
}

/**
 * The RE2 spelling of an ECMA-262 (`u` flag) pattern that `new RegExp(source, 'u')` accepts.
 * @throws UnsupportedPatternError for backreferences, lookaround and modifiers.
 * @example ecmaToRe2('^\\s*[a-z]+.$') // '^[\\x{9}-\\x{D}…]*[a-z]+[^\\x{A}\\x{D}\\x{2028}\\x{2029}]$'
 */
export function ecmaToRe2(source: string): string {
  const r = new Reader(source);
  let out = '';
  while (!r.done()) out += term(r);
  return out;
}

function term(r: Reader): string {
  const cp = r.next();
  const c = String.fromCodePoint(cp);
  switch (c) {
    case '\\': return escape(r);
    case '[': return characterClass(r);
    case '(': return group(r);
    case '.': return DOT;
    // With the `u` flag a `{` outside a class always opens a quantifier: `{n}`, `{n,}`, `{n,m}`.
    case '{': return `{${r.until('}')}}`;
    case ')': case '|': case '^': case '$': case '*': case '+': case '?': return c;
    default: return literal(cp);
  }
}

function group(r: Reader): string {
  if (r.peek() !== '?') return '(?:';
  const kind = r.peek(1);
  if (kind === ':') {
    r.at += 2;
    return '(?:';
  }
  if (kind === '=' || kind === '!') r.refuse(`lookahead ((?=…), (?!…)) is not supported: ${LINEAR}`);
  if (kind === '<') {
    const next = r.peek(2);
    if (next === '=' || next === '!') r.refuse(`lookbehind ((?<=…), (?<!…)) is not supported: ${LINEAR}`);
    r.at += 2;
    r.until('>');
    return '(?:';
  }
  return r.refuse('modifiers such as (?i:…) are not supported: write the cases out, e.g. [Aa]');
}

function escape(r: Reader): string {
  const c = String.fromCodePoint(r.next());
  switch (c) {
    case 'd': case 'D': case 'w': case 'W': case 'b': case 'B': return `\\${c}`;
    case 's': return `[${WHITE_SPACE_ITEMS}]`;
    case 'S': return `[^${WHITE_SPACE_ITEMS}]`;
    case 'p': case 'P': return property(r, c === 'P', false);
    case 'k': return r.refuse(`backreferences (\\k<name>) are not supported: ${LINEAR}`);
    default:
      if (c >= '1' && c <= '9') r.refuse(`backreferences (\\${c}) are not supported: ${LINEAR}`);
      return hex(characterEscape(r, c));
  }
}

/** The code point of a character escape (after `\` and its letter `c`). */
function characterEscape(r: Reader, c: string): number {
  switch (c) {
    case 'f': return 0xc;
    case 'n': return 0xa;
    case 'r': return 0xd;
    case 't': return 0x9;
    case 'v': return 0xb;
    case '0': return 0;
    case 'c': return r.next() % 32;
    case 'x': return Number.parseInt(r.source.slice(r.at, (r.at += 2)), 16);
    case 'u': return unicodeEscape(r);
    // An identity escape: a syntax character, `/`, or `-` in a class.
    default: return c.codePointAt(0)!;
  }
}

function unicodeEscape(r: Reader): number {
  if (r.peek() === '{') {
    r.at += 1;
    return Number.parseInt(r.until('}'), 16);
  }
  const unit = Number.parseInt(r.source.slice(r.at, (r.at += 4)), 16);
  // With the `u` flag, `\uD83D\uDE00` is one code point (a surrogate pair), not two.
  const trail = /^\\u(d[c-f][0-9a-f]{2})/i.exec(r.source.slice(r.at, r.at + 6));
  if (unit >= 0xd800 && unit <= 0xdbff && trail !== null) {
    r.at += 6;
    return 0x10000 + ((unit - 0xd800) << 10) + (Number.parseInt(trail[1]!, 16) - 0xdc00);
  }
  return unit;
}

/** `\p{…}` / `\P{…}` (after the letter), as RE2 writes it outside or inside a class. */
function property(r: Reader, negated: boolean, inClass: boolean): string {
  r.at += 1;
  const body = r.until('}');
  const [key, value] = body.includes('=') ? body.split('=') as [string, string] : [null, body];
  if (key === null && value === 'ASCII') {
    const items = negated ? '\\x{80}-\\x{10FFFF}' : '\\x{0}-\\x{7F}';
    return inClass ? items : `[${items}]`;
  }
  let name: string;
  if (key === null) name = GENERAL_CATEGORY[value] ?? value; // else a binary property (RE2 knows some)
  else if (key === 'General_Category' || key === 'gc') name = GENERAL_CATEGORY[value] ?? value;
  else if (key === 'Script' || key === 'sc') name = value; // RE2 knows scripts by their long names
  else return r.refuse(`\\p{${body}} is not supported: RE2 has no Script_Extensions; use \\p{Script=…}`);
  return `\\${negated ? 'P' : 'p'}{${name}}`;
}

function characterClass(r: Reader): string {
  const negated = r.peek() === '^';
  if (negated) r.at += 1;
  const items: string[] = [];
  const sources: string[] = []; // the ECMA text of every item but `\S`
  let nonSpace = false;
  while (r.peek() !== ']') {
    const start = r.at;
    const item = classItem(r);
    if ('nonSpace' in item) {
      nonSpace = true;
      continue;
    }
    if ('cp' in item && r.peek() === '-' && r.peek(1) !== ']') {
      r.at += 1;
      // With the `u` flag a range joins two single characters.
      const last = classItem(r) as { cp: number };
      items.push(`${hex(item.cp)}-${hex(last.cp)}`);
    } else {
      items.push('cp' in item ? hex(item.cp) : item.items);
    }
    sources.push(r.source.slice(start, r.at));
  }
  r.at += 1;
  const body = items.join('');
  if (!nonSpace) {
    if (body === '') return negated ? `[${ALL_ITEMS}]` : NOTHING;
    return `[${negated ? '^' : ''}${body}]`;
  }
  // RE2 cannot negate `\s` inside a class: `[X\S]` is X or any non-space, …
  if (!negated) return body === '' ? `[^${WHITE_SPACE_ITEMS}]` : `(?:[${body}]|[^${WHITE_SPACE_ITEMS}])`;
  // … and `[^X\S]` is the white space X does not hold, a finite set: ask V8 which (a class on one
  // character cannot backtrack).
  const inX = new RegExp(`^[${sources.join('')}]$`, 'u');
  const left = WHITE_SPACE.filter((cp) => !inX.test(String.fromCodePoint(cp)));
  return left.length === 0 ? NOTHING : `[${left.map(hex).join('')}]`;
}

function classItem(r: Reader): ClassItem {
  const cp = r.next();
  if (cp !== 0x5c) return { cp };
  const c = String.fromCodePoint(r.next());
  switch (c) {
    case 'd': case 'D': case 'w': case 'W': return { items: `\\${c}` };
    case 's': return { items: WHITE_SPACE_ITEMS };
    case 'S': return { nonSpace: true };
    case 'p': case 'P': return { items: property(r, c === 'P', true) };
    case 'b': return { cp: 0x8 };
    default: return { cp: characterEscape(r, c) };
  }
}
