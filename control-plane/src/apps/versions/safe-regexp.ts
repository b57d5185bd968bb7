/**
 * @module apps/versions/safe-regexp
 * The regular-expression engine ajv gets (`code.regExp`) for app schemas' `pattern`,
 * `patternProperties` and `propertyNames`: RE2 (re2js, pure JS), whose matching time is linear in
 * the input. V8's backtracking RegExp would let an app stall the control plane's one event loop
 * for every tenant with `"pattern": "^(a+)+$"` and a string of `a`s ending in `!`.
 *
 * A pattern is read as JSON Schema says (ECMA-262, `u` flag as ajv sets it): V8 checks the syntax
 * (parsing does not match anything, so it cannot backtrack), `ecmaToRe2` rewrites it with the same
 * meaning, RE2 compiles that. What RE2 cannot run (backreferences, lookaround, repeat counts over
 * 1000, programs over `MAX_PATTERN_PROGRAM`) throws `UnsupportedPatternError` at compile time,
 * which is when a version is accepted. decisions/apps.md ("Schema regular expressions") has the why.
 */
import { RE2JS } from 're2js';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { ecmaToRe2, UnsupportedPatternError } from './ecma-to-re2.ts';

export { UnsupportedPatternError } from './ecma-to-re2.ts';

/**
 * Largest RE2 program (instructions) a pattern may compile to. Linear time is still input length
 * times the active part of the program when RE2's DFA gives up (a pattern built to explode it);
 * 1,000 keeps one pass over the largest value (64 KB of state) under about a second on this
 * machine's measure, and covers what schemas write (`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$` is
 * 129, `^.{1,400}$` about 800). `maxLength` is the tool for lengths.
 */
export const MAX_PATTERN_PROGRAM = 1000;

/**
 * A pattern's lazily built DFA states are kept between calls up to this size; past it they are
 * dropped after the call. re2js lets one DFA grow to 8 MB, and a version keeps its validators
 * compiled: an app with many patterns built to explode the DFA would otherwise hold gigabytes.
 */
export const KEEP_DFA_BYTES = 32 * 1024;

/** The slice of re2js's RE2 (declared in its types) that holds the lazy DFA and its budget. */
interface Re2Internals {
  lazyDFA: { stateBudget: number; memBudget: number } | null;
}

/** What ajv asks of a regular expression: `test`, and `toString` as the key that shares one per pattern. */
export class SafeRegExp {
  readonly source: string;
  readonly #re: RE2JS;
  constructor(source: string, re: RE2JS) {
    this.source = source;
    this.#re = re;
  }
  test(input: string): boolean {
    const matched = this.#re.test(input);
    if (this.keptDfaBytes > KEEP_DFA_BYTES) (this.#re.re2() as unknown as Re2Internals).lazyDFA = null;
    return matched;
  }
  /** Bytes (re2js's estimate) of the DFA states this pattern keeps for its next call. */
  get keptDfaBytes(): number {
    const dfa = (this.#re.re2() as unknown as Re2Internals).lazyDFA;
    return dfa ? dfa.stateBudget - dfa.memBudget : 0;
  }
  toString(): string {
    return `/${this.source}/u`;
  }
}

/**
 * Compiles a JSON Schema pattern for linear-time matching.
 * @throws UnsupportedPatternError when it is not a valid ECMA-262 pattern or RE2 cannot run it.
 * @example compileSafeRegExp('^[a-z0-9-]+$').test('my-app') // true
 */
export function compileSafeRegExp(source: string): SafeRegExp {
  try {
    new RegExp(source, 'u');
  } catch (err) {
    throw new UnsupportedPatternError(source, `not a valid regular expression: ${(err as Error).message}`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(ecmaToRe2(source));
  } catch (err) {
    if (err instanceof UnsupportedPatternError) throw err;
    // RE2's own limits: repeat counts over 1000, nesting, unknown \p{…} names.
    throw new UnsupportedPatternError(source, `the linear-time engine (RE2) refuses it: ${(err as Error).message}`);
  }
  const size = re.programSize();
  if (size > MAX_PATTERN_PROGRAM) {
    throw new UnsupportedPatternError(source, `too large for the linear-time engine: ${size} instructions, at most ${MAX_PATTERN_PROGRAM} (use maxLength for lengths)`);
  }
  return new SafeRegExp(source, re);
}

/**
 * The engine for ajv's `code: { regExp }`. ajv passes `u` as the flags (`unicodeRegExp`, on by
 * default and pinned in validators.ts); the translation reads patterns that way, so any other flags
 * are a wiring mistake.
 */
export const safeRegExp: RegExpEngine = Object.assign(
  (source: string, flags: string) => {
    if (flags !== 'u') throw new Error(`safeRegExp reads patterns with the u flag only, got "${flags}"`);
    return compileSafeRegExp(source);
  },
  // Printed only into standalone validation code, which the control plane does not generate.
  { code: 'safeRegExp' },
);
