/**
 * @module sandbox/bundle-script
 * Rewrites a self-contained ES module bundle as a classic script that runs the same code, so that
 * its compiled code can be cached: isolated-vm 7.0.1 compiles modules without V8's code cache (it
 * never passes `kConsumeCodeCache` to `CompileModule`), while scripts take it (docs/decisions/runtime.md).
 *
 * Every line and column of the bundle keeps its place, so stack traces point at the uploaded file:
 * `export` keywords become `;` and spaces, `export { … }` clauses are blanked (line breaks kept),
 * `export default <expression>` becomes `;const $pfm$d=<expression>` (same length), the wrapper's
 * opening sits on a line of its own before line 1 (the script origin's `lineOffset` of -1 hides it)
 * and its closing follows the last line.
 *
 * The script's completion value is `[run, namespace]`: `run()` (called with `this` undefined)
 * evaluates the bundle as the body of a strict async function, so top-level `await` works and a
 * rejection surfaces as an unhandled rejection of the call, as a module's evaluation error would;
 * `namespace()` returns a null-prototype object whose `default` getter reads the bundle's default
 * binding when asked (a live binding, with a module's "Cannot access 'default' before
 * initialization" while a top-level `await` has not reached it).
 *
 * Conversion refuses (and the caller keeps the module path) whenever it cannot be certain that the
 * script behaves as the module: see `toClassicScript`.
 */
import { initSync, parse } from 'es-module-lexer';

/** Every name the wrapper introduces starts with this; a bundle containing it is not converted. */
export const WRAPPER_MARKER = '$pfm$';
/** The binding of `export default <expression>`: `;const $pfm$d=` is as long as `export default`. */
const DEFAULT_BINDING = `${WRAPPER_MARKER}d`;
const DEFAULT_DECLARATION = `;const ${DEFAULT_BINDING}=`;
const NAMESPACE = `${WRAPPER_MARKER}n`;
const REFERENCE_ERROR = `${WRAPPER_MARKER}r`;

export interface BundleScript {
  /** Script source: the wrapper's first line, the bundle's lines, the wrapper's last line. */
  code: string;
  /** Script origin line offset that makes the bundle's first line line 1 again. */
  lineOffset: number;
  /**
   * Compiled (never run) before `code` is trusted when the bundle mentions `arguments`: at a
   * module's top level `arguments` is an ordinary global lookup, in a function it is the
   * function's own arguments object. The probe puts the body in an arrow function inside a class
   * field initializer, where any `arguments` not inside a nested non-arrow function is an early
   * SyntaxError, so the probe compiles only when the bundle has no top-level `arguments`.
   */
  argumentsProbe: string | null;
}

export type Conversion = { ok: true; script: BundleScript } | { ok: false; reason: string };

let lexerReady = false;

/**
 * Converts `source`, an ES module that V8 already compiled as a module (the caller's guarantee:
 * only then are the module's early errors, such as an undeclared export or a top-level `return`,
 * known to be absent), into a classic script.
 *
 * Refused (`ok: false`), so the module path stays: anything the lexer cannot read; any import,
 * re-export, dynamic `import()` or `import.meta`; the wrapper's marker anywhere in the text; HTML-like
 * comments (`<!--` and `-->` read as comments in scripts only); a hashbang; a comment or line break
 * inside an export statement's keywords; an anonymous default function or class, or a default
 * expression that may be one (it would be named `$pfm$d` instead of `default`); an export
 * statement of a shape not listed above. Any `export` left in the text by mistake makes the script
 * fail to compile, which the caller also treats as a refusal.
 *
 * @example
 * toClassicScript('const app = { fetch() {} };\nexport { app as default };');
 * // → { ok: true, script: { code: '(function () { … get default() { … return app; … } …\nconst app = …;\n;                          \n}), …', lineOffset: -1, argumentsProbe: null } }
 */
export function toClassicScript(source: string): Conversion {
  if (source.includes(WRAPPER_MARKER)) return refuse(`the bundle contains the reserved text ${WRAPPER_MARKER}`);
  if (source.includes('<!--') || source.includes('-->')) return refuse('HTML-like comments read differently in scripts');
  if (source.startsWith('#!')) return refuse('a hashbang line');
  let imports: ReturnType<typeof parse>[0];
  let exports: ReturnType<typeof parse>[1];
  try {
    if (!lexerReady) {
      initSync();
      lexerReady = true;
    }
    [imports, exports] = parse(source);
  } catch {
    return refuse('the module lexer could not read the bundle');
  }
  if (imports.length > 0) return refuse('imports, re-exports, import() or import.meta');

  const statements = new Map<number, Array<(typeof exports)[number]>>();
  for (const entry of exports) {
    const list = statements.get(entry.ss);
    if (list === undefined) statements.set(entry.ss, [entry]);
    else list.push(entry);
  }
  const edits: Edit[] = [];
  let defaultRead: string | null = null;
  for (const [start, entries] of statements) {
    const edit = exportStatement(source, start, entries);
    if (typeof edit === 'string') return refuse(edit);
    edits.push(edit);
    if (edit.defaultRead !== null) {
      if (defaultRead !== null) return refuse('two default exports');
      defaultRead = edit.defaultRead;
    }
  }

  const body = applyEdits(source, edits);
  // Reading a binding before its declaration ran (a pending top-level await) throws; a module
  // namespace then names the export, not the binding: so does this getter.
  const namespace = defaultRead === null ? '{ __proto__: null }'
    : `{ __proto__: null, get default() { try { return ${defaultRead}; } catch { throw new ${REFERENCE_ERROR}("Cannot access 'default' before initialization"); } } }`;
  // The body's function is parenthesized so that V8 compiles it with the script (its "possibly
  // invoked function expression" rule): its bytecode is then in the code cache, where a function
  // compiled at its first call would not be (that would cost a parse of the whole body, ~7 ms a MB).
  const code = `(function () { "use strict"; const ${REFERENCE_ERROR} = ReferenceError; let ${NAMESPACE}; return [(async function () { ${NAMESPACE} = ${namespace};\n`
    + `${body}\n}), function () { return ${NAMESPACE}; }]; })()`;
  const argumentsProbe = source.includes('arguments') ? `(class { static ${WRAPPER_MARKER}p = async () => {\n${body}\n} })` : null;
  return { ok: true, script: { code, lineOffset: -1, argumentsProbe } };
}

interface Edit {
  start: number;
  end: number;
  /** Same length as end - start, line terminators at the same offsets. */
  text: string;
  /** The binding read as the default export, when this statement declares it. */
  defaultRead: string | null;
}

function refuse(reason: string): Conversion {
  return { ok: false, reason };
}

const DECLARATIONS = new Set(['var', 'let', 'const', 'function', 'class', 'async']);
const MAYBE_ANONYMOUS = new Set(['function', 'class', 'async']);

/** The edit for the export statement starting at `start`, or why it cannot be converted. */
function exportStatement(source: string, start: number, entries: ReadonlyArray<{ n: string; ln?: string | undefined; e: number; le: number }>): Edit | string {
  if (!source.startsWith('export', start) || isWordChar(source, start + 6)) return 'an export the lexer placed oddly';
  const next = skipSpace(source, start + 6);
  if (source.startsWith('default', next) && !isWordChar(source, next + 7)) {
    const entry = entries[0];
    if (entries.length !== 1 || entry?.n !== 'default') return 'an unexpected default export';
    const after = skipSpace(source, next + 7);
    const keyword = declarationKeyword(source, after);
    if (entry.ln !== undefined) {
      // `export default function name() {}` / `class Name {}`: a declaration once the keywords go.
      if (keyword === null) return 'a named default export that is not a function or class declaration';
      return { start, end: next + 7, text: blankStatementStart(source.slice(start, next + 7)), defaultRead: entry.ln };
    }
    // An expression. Anonymous functions and classes take the name of the binding they initialise
    // ("default" in a module): refuse any expression that may be one, or that we cannot read.
    if (keyword !== null || mayBeAnonymousFunction(source, after)) return 'an anonymous default function or class';
    const keywords = source.slice(start, next + 7);
    if (/[\n\r\u2028\u2029]/.test(keywords)) return 'a line break inside `export default`';
    // `const`, as a module's default binding: reading it before its statement ran throws.
    return { start, end: next + 7, text: DEFAULT_DECLARATION.padEnd(keywords.length, ' '), defaultRead: DEFAULT_BINDING };
  }
  if (source[next] === '{') {
    let end = Math.max(...entries.map((e) => Math.max(e.e, e.le)));
    end = skipSpace(source, end);
    if (source[end] === ',') end = skipSpace(source, end + 1);
    if (source[end] !== '}') return 'an export list the lexer did not fully read';
    const own = entries.find((e) => e.n === 'default');
    if (own !== undefined && own.ln === undefined) return 'an unexpected default export';
    return { start, end: end + 1, text: blankStatementStart(source.slice(start, end + 1)), defaultRead: own?.ln ?? null };
  }
  const word = wordAt(source, next);
  if (!DECLARATIONS.has(word)) return 'an export statement of an unknown shape';
  if (entries.some((e) => e.n === 'default')) return 'an unexpected default export';
  return { start, end: start + 6, text: ';     ', defaultRead: null };
}

/**
 * `;` then spaces, line terminators kept. The `;` ends whatever statement precedes the export: once
 * an `export { … }` clause is gone, a next line starting with `(` or `[` must not continue it.
 */
function blankStatementStart(text: string): string {
  return ';' + text.slice(1).replace(/[^\n\r\u2028\u2029]/g, ' ');
}

/** `function`, `class` or `async function` at `at` (keywords separated by spaces or tabs only). */
function declarationKeyword(source: string, at: number): string | null {
  const word = wordAt(source, at);
  if (word === 'function' || word === 'class') return word;
  if (word === 'async') {
    const gap = /^[ \t]+function(?![\w$])/.exec(source.slice(at + 5, at + 5 + 64));
    if (gap !== null) return 'async function';
  }
  return null;
}

/**
 * Whether the expression at `at` may be an anonymous function or class definition (which takes its
 * binding's name): it starts with `(` (an arrow's parameters or a parenthesized function), a
 * comment or regular expression, an escape or non-ASCII identifier, `function`, `class`, `async`,
 * or is an identifier followed by `=>` or a comment. Conservative: a refusal only costs speed.
 */
function mayBeAnonymousFunction(source: string, at: number): boolean {
  const c = source.charCodeAt(at);
  if (Number.isNaN(c) || c === 0x28 /* ( */ || c === 0x2f /* / */ || c === 0x5c /* \ */ || c >= 0x80) return true;
  const word = wordAt(source, at);
  if (word === '') return false;
  if (MAYBE_ANONYMOUS.has(word)) return true;
  const following = skipSpace(source, at + word.length);
  return source.startsWith('=>', following) || source[following] === '/' || source.charCodeAt(following) >= 0x80 || source[following] === '\\';
}

function wordAt(source: string, at: number): string {
  let end = at;
  while (isWordChar(source, end)) end++;
  return source.slice(at, end);
}

function isWordChar(source: string, at: number): boolean {
  const c = source.charCodeAt(at);
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x24 || c === 0x5f;
}

/** Skips white space and line terminators (never comments: a comment makes callers refuse). */
function skipSpace(source: string, at: number): number {
  let i = at;
  while (i < source.length && /\s/.test(source[i]!)) i++;
  return i;
}

function applyEdits(source: string, edits: Edit[]): string {
  edits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const edit of edits) {
    parts.push(source.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(source.slice(at));
  return parts.join('');
}
