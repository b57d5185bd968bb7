// Bundles as classic scripts (runtime/src/sandbox/bundle-script.ts): the conversion as a pure
// function, and, for every case it converts, the proof that the script does what the module does:
// each bundle runs as a module and as its script form in fresh isolates, and what evaluation and
// reading the default export give must be the same.
import { describe, expect, it, vi } from 'vitest';
import { createBundlePlans, type BundlePlan } from '../../runtime/src/sandbox/bundle-plans.ts';
import { toClassicScript, type BundleScript } from '../../runtime/src/sandbox/bundle-script.ts';
import { loadIvm, type Context, type ExternalCopy, type Isolate, type Reference } from '../../runtime/src/sandbox/ivm.ts';

const ivm = loadIvm();
const FILE = 'app:///bundle.js';

/** What a bundle's start gives: how evaluation ended, then what reading `default` gave. */
interface Run {
  evaluated: string;
  read: string;
}

/** Reads `default` inside the isolate (as the guest runtime's bindModule does) and describes it. */
const READ = `(ns) => {
  let v;
  try { v = ns.default; } catch (e) { return 'threw ' + e.message; }
  return JSON.stringify(typeof v === 'function' ? { fn: v.name } : v === undefined ? { undefined: true } : { value: v });
}`;

async function withIsolate<T>(fn: (isolate: Isolate, context: Context) => Promise<T>): Promise<T> {
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  try {
    return await fn(isolate, isolate.createContextSync());
  } finally {
    isolate.dispose();
  }
}

const message = (err: unknown): string => `threw ${err instanceof Error ? err.message : String(err)}`;

async function read(context: Context, namespace: Reference): Promise<string> {
  const reader = (await context.eval(READ, { reference: true })) as Reference;
  return reader.applySync(undefined, [namespace.derefInto()]) as string;
}

function runModule(source: string): Promise<Run> {
  return withIsolate(async (isolate, context) => {
    const module = isolate.compileModuleSync(source, { filename: FILE });
    module.instantiateSync(context, () => { throw new Error('no imports'); });
    let evaluated = 'ok';
    await module.evaluate().catch((err: unknown) => { evaluated = message(err); });
    return { evaluated, read: await read(context, module.namespace) };
  });
}

/** Uses the script form as the worker's slot does (slot.ts `compileScript`). */
function runScript(script: BundleScript): Promise<Run> {
  return withIsolate(async (isolate, context) => {
    const pair = isolate.compileScriptSync(script.code, { filename: FILE, lineOffset: script.lineOffset }).runSync(context, { reference: true }) as Reference<unknown[]>;
    const run = pair.getSync(0, { reference: true }) as Reference;
    const namespace = pair.getSync(1, { reference: true }) as Reference;
    let evaluated = 'ok';
    await run.apply(undefined, [], { result: { reference: true } }).catch((err: unknown) => { evaluated = message(err); });
    return { evaluated, read: await read(context, namespace.applySync(undefined, [], { result: { reference: true } }) as Reference) };
  });
}

function converted(source: string): BundleScript {
  const conversion = toClassicScript(source);
  if (!conversion.ok) throw new Error(`refused: ${conversion.reason}`);
  return conversion.script;
}

const same: Array<[string, string, Run]> = [
  ['export default <object>', 'export default { a: 1 };', { evaluated: 'ok', read: '{"value":{"a":1}}' }],
  ['export default <call>', 'const make = () => ({ made: true });\nexport default make()\n', { evaluated: 'ok', read: '{"value":{"made":true}}' }],
  ['export default <expression> over lines', 'export default\n  [1,\n  2].map((x) => x * 2);', { evaluated: 'ok', read: '{"value":[2,4]}' }],
  ['export default function name() {}', 'export default function handler() { return 1; }', { evaluated: 'ok', read: '{"fn":"handler"}' }],
  ['export default async function name() {}', 'export default async function handler() {}', { evaluated: 'ok', read: '{"fn":"handler"}' }],
  ['export default function* name() {}', 'export default function* gen() {}', { evaluated: 'ok', read: '{"fn":"gen"}' }],
  ['export default class Name {}', 'export default class App { static fetch() {} }', { evaluated: 'ok', read: '{"fn":"App"}' }],
  ['a default function is a live binding', 'export default function f() {}\nf = { replaced: true };', { evaluated: 'ok', read: '{"value":{"replaced":true}}' }],
  ['export { a as default }', 'let a = 1;\nexport { a as default };\na = 2;', { evaluated: 'ok', read: '{"value":2}' }],
  ['export { a as default } without a semicolon, a parenthesis after it',
    'const b = () => "called";\nlet a = b\nexport { a as default }\n(0, 1)', { evaluated: 'ok', read: '{"fn":"b"}' }],
  ['export const / let / var / function / class, no default', 'export const a = 1, b = 2;\nexport let c;\nexport var d;\nexport function f() {}\nexport class C {}\nexport async function g() {}', { evaluated: 'ok', read: '{"undefined":true}' }],
  ['several specifiers', 'const a = 1, b = 2, app = { ok: true };\nexport { a, b as "b c", app as default, };', { evaluated: 'ok', read: '{"value":{"ok":true}}' }],
  ['export destructuring', 'const o = { x: 1, y: [2] };\nexport const { x, y: [z] } = o;\nexport default { x, z };', { evaluated: 'ok', read: '{"value":{"x":1,"z":2}}' }],
  ['the word export in strings, comments, regexes and templates',
    'const s = "export default 1"; // export { s }\n/* export const q = 1; export default 2 */\nconst r = /export default/;\nconst t = `export ${"{"} a }`;\nconst u = \'export\';\nexport default { s, r: r.source, t, u };',
    { evaluated: 'ok', read: '{"value":{"s":"export default 1","r":"export default","t":"export { a }","u":"export"}}' }],
  ['top-level await', 'const v = await Promise.resolve(41);\nexport default { v: v + 1 };', { evaluated: 'ok', read: '{"value":{"v":42}}' }],
  ['top-level await pending before the default export', 'await new Promise(() => {});\nexport default 1;', { evaluated: 'ok', read: "threw Cannot access 'default' before initialization" }],
  ['top-level await pending before export { a as default }', 'await new Promise(() => {});\nconst a = 1;\nexport { a as default };', { evaluated: 'ok', read: "threw Cannot access 'default' before initialization" }],
  ['top-level await pending before a default class declaration', 'await new Promise(() => {});\nexport default class App {}', { evaluated: 'ok', read: "threw Cannot access 'default' before initialization" }],
  ['top-level await pending after a hoisted default function', 'await new Promise(() => {});\nexport default function handler() {}', { evaluated: 'ok', read: '{"fn":"handler"}' }],
  ['top-level await pending after the default export', 'export default { early: true };\nawait new Promise(() => {});', { evaluated: 'ok', read: '{"value":{"early":true}}' }],
  ['a bundle that throws at top level', 'const x = 1;\nthrow new Error("boom");\nexport default { x };', { evaluated: 'threw boom', read: "threw Cannot access 'default' before initialization" }],
  ['a bundle that throws after an await', 'await null;\nthrow new TypeError("late");\nexport default {};', { evaluated: 'threw late', read: "threw Cannot access 'default' before initialization" }],
  ['a bundle that throws after its default export', 'export default { x: 1 };\nthrow new Error("after");', { evaluated: 'threw after', read: '{"value":{"x":1}}' }],
  ['top-level this is undefined; top-level vars stay local', 'var leaked = 1;\nfunction alsoLocal() {}\nexport default { self: typeof this, leaked: typeof globalThis.leaked, fn: typeof globalThis.alsoLocal };',
    { evaluated: 'ok', read: '{"value":{"self":"undefined","leaked":"undefined","fn":"undefined"}}' }],
  ['arguments inside functions', 'function count() { return arguments.length; }\nexport default { n: count(1, 2, 3) };', { evaluated: 'ok', read: '{"value":{"n":3}}' }],
  ['no default export', 'export const a = 1;', { evaluated: 'ok', read: '{"undefined":true}' }],
];

describe('the script form behaves as the module', () => {
  it.each(same)('%s', async (_name, source, expected) => {
    const script = converted(source);
    expect(await runModule(source)).toEqual(expected);
    expect(await runScript(script)).toEqual(expected);
  });

  it('an Object.prototype.default planted by the bundle is not its default export', async () => {
    const source = 'Object.prototype.default = { planted: true };\nexport const a = 1;';
    expect(await runScript(converted(source))).toEqual(await runModule(source));
  });
});

describe('positions', () => {
  const stackOf = (source: string) => `${source}\nlet stack;\ntry { fail(); } catch (e) { stack = e.stack; }\nexport default { stack };`;

  it.each([
    ['line 1', 'function fail() { null.x; }', 'app:///bundle.js:1:24'],
    ['line 1 after export default was replaced', 'export const z = 0; function fail() { null.x; }', 'app:///bundle.js:1:44'],
    ['a later line after a blanked export list', 'const q = 1;\nexport {\n  q\n};\n   function fail() { null.x; }', 'app:///bundle.js:5:27'],
    ['CRLF line endings', 'export const a = 1;\r\nexport {\r\n a as b };\r\n  function fail() { null.x; }', 'app:///bundle.js:4:26'],
  ])('%s keeps its line and column', async (_name, body, position) => {
    const source = stackOf(body);
    for (const run of [await runModule(source), await runScript(converted(source))]) {
      expect(run.read).toContain(position);
    }
  });

  it('keeps the length and the line terminators of the bundle between the wrapper\'s two lines', () => {
    const source = 'const a = 1;\r\nexport {\n  a as default\n};\u2028export const b = 2;\rexport\tfunction f() {}\n';
    const code = converted(source).code;
    const body = code.slice(code.indexOf('\n') + 1, code.lastIndexOf('\n'));
    const breaks = (text: string) => [...text.matchAll(/[\n\r\u2028\u2029]/g)].map((m) => m.index);
    expect(body.length).toBe(source.length);
    expect(breaks(body)).toEqual(breaks(source));
  });
});

describe('refusals (the module path stays)', () => {
  it.each([
    ['a static import', 'import x from "./x.js";\nexport default x;', /imports/],
    ['a re-export', 'export { a } from "./a.js";', /imports/],
    ['export * from', 'export * from "./a.js";', /imports/],
    ['a dynamic import', 'export default { load: () => import("./x.js") };', /import\(\)/],
    ['import.meta', 'export default { url: import.meta.url };', /import\.meta/],
    ['an anonymous default function', 'export default function () {}', /anonymous/],
    ['an anonymous default class', 'export default class { static fetch() {} }', /anonymous/],
    ['a default arrow function', 'export default (request) => new Response("x");', /anonymous/],
    ['a default single-parameter arrow', 'export default request => request;', /anonymous/],
    ['a parenthesized default', 'export default ({ fetch() {} });', /anonymous/],
    ['a comment after export default', 'export default /* app */ {};', /anonymous/],
    ['a line break inside export default', 'export\ndefault {};', /line break/],
    ['the wrapper marker', 'const $pfm$d = 1;\nexport default {};', /reserved/],
    ['an HTML-like comment opener', 'const a = 1, b = 2;\nexport default { lt: a<!--b };', /HTML/],
    ['an HTML-like comment closer', 'let a = 3;\nexport default { gt: a-->0 };', /HTML/],
    ['a hashbang', '#!/usr/bin/env node\nexport default {};', /hashbang/],
    ['text the lexer cannot read', 'export default { a: `unterminated };', /lexer/],
  ])('%s', (_name, source, reason) => {
    const conversion = toClassicScript(source);
    expect(conversion.ok).toBe(false);
    if (!conversion.ok) expect(conversion.reason).toMatch(reason);
  });

  it('a module whose default function is anonymous is named "default"; the conversion refuses it for that reason', async () => {
    expect((await runModule('export default function () {}')).read).toBe('{"fn":"default"}');
  });

  it('an `export {}` left in the text makes the script fail to compile (the caller then keeps the module)', () => {
    const conversion = toClassicScript('export {};\nexport default {};');
    expect(conversion.ok).toBe(true);
    if (!conversion.ok) return;
    expect(() => withIsolateSync((isolate) => isolate.compileScriptSync(conversion.script.code))).toThrow(/Unexpected token 'export'/);
  });
});

describe('top-level arguments', () => {
  it('the probe does not compile when the bundle reads arguments at top level', () => {
    const script = converted('export default { n: typeof arguments };');
    expect(script.argumentsProbe).not.toBeNull();
    expect(() => withIsolateSync((isolate) => isolate.compileScriptSync(script.argumentsProbe!))).toThrow(SyntaxError);
  });

  it('the probe compiles when arguments is only read inside functions (also under arrows in them)', () => {
    const script = converted('function f() { return (() => arguments.length)(); }\nexport default { n: f(1) };');
    expect(script.argumentsProbe).not.toBeNull();
    expect(() => withIsolateSync((isolate) => isolate.compileScriptSync(script.argumentsProbe!))).not.toThrow();
  });

  it('arguments under a top-level arrow is top-level arguments: the probe refuses it', () => {
    const script = converted('const f = () => typeof arguments;\nexport default { f };');
    expect(() => withIsolateSync((isolate) => isolate.compileScriptSync(script.argumentsProbe!))).toThrow(SyntaxError);
  });

  it('no probe when the word does not occur', () => {
    expect(converted('export default {};').argumentsProbe).toBeNull();
  });
});

describe('plans kept per sha256', () => {
  const plan = (chars: number) => {
    const release = vi.fn();
    const value: BundlePlan = { mode: 'script', script: { code: 'x'.repeat(chars), lineOffset: -1, argumentsProbe: null }, cachedData: { release } as unknown as ExternalCopy<ArrayBuffer> };
    return { value, release };
  };

  it('drops the least recently used past the count, releasing its code cache', () => {
    const plans = createBundlePlans({ entries: 2, sourceChars: 1000 });
    const [a, b, c] = [plan(10), plan(10), plan(10)];
    plans.set('a', a.value);
    plans.set('b', b.value);
    expect(plans.get('a')).toBe(a.value);
    plans.set('c', c.value);
    expect(plans.get('b')).toBeUndefined();
    expect(b.release).toHaveBeenCalledOnce();
    expect([plans.get('a'), plans.get('c')]).toEqual([a.value, c.value]);
  });

  it('keeps the converted sources within their size, and never one larger than all of it', () => {
    const plans = createBundlePlans({ entries: 10, sourceChars: 100 });
    const [a, b, huge] = [plan(60), plan(60), plan(101)];
    plans.set('a', a.value);
    plans.set('b', b.value);
    expect(plans.get('a')).toBeUndefined();
    expect(a.release).toHaveBeenCalledOnce();
    plans.set('huge', huge.value);
    expect(plans.get('huge')).toBeUndefined();
    expect(huge.release).toHaveBeenCalledOnce();
    expect(plans.get('b')).toBe(b.value);
    plans.set('m', { mode: 'module', reason: 'refused' });
    expect(plans.size).toBe(2);
  });
});

function withIsolateSync<T>(fn: (isolate: Isolate) => T): T {
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  try {
    return fn(isolate);
  } finally {
    isolate.dispose();
  }
}
