/**
 * @module delivery/lean/check
 * A few kilobytes of checks that read values the way the delivery schemas' zod does, for the SDK's
 * delivery path inside hosted bundles, where zod would be most of the bundle. Each check takes a
 * value, its path and the issue list, and answers the value as read (defaults applied, closed
 * lists mapped, unknown fields kept), pushing issues as it goes.
 *
 * What it mirrors of zod 4, because the SDK's answers (status, message, path) must not change:
 * - issue messages in zod's English locale, first issue first;
 * - which issues stop the checks after them ("fatal": a wrong type, a non-integer, a literal or
 *   discriminator mismatch, a bad record key) and which do not (sizes, formats, refinements);
 * - unions: the first option that passes wins; else the one option that failed without a fatal
 *   issue gives its issues; else one "Invalid input";
 * - objects: declared keys in declaration order, then unknown keys as `for…in` yields them
 *   (`__proto__` skipped); records: own enumerable keys in `Reflect.ownKeys` order.
 * Property tests hold every lean check equal to its zod schema (test/sandbox-lib/lean-checks.test.ts).
 */

export type Path = ReadonlyArray<string | number>;

export interface Issue {
  readonly path: Path;
  readonly message: string;
  /** True when zod would not run the checks after it (`continue` not set). */
  readonly fatal: boolean;
}

/** Reads `value` at `path`: answers the value as read and pushes problems to `issues`. */
export interface Check {
  (value: unknown, path: Path, issues: Issue[]): unknown;
  /** An object may leave this key out (zod's `.optional()`, or `.default()` with `fallback`). */
  readonly optional?: true;
}

export type Read = { ok: true; value: unknown } | { ok: false; path: Path; message: string };

/**
 * Runs `check` on `value`: the value as read, or the first problem.
 * @example read(str(1), '') // { ok: false, path: [], message: 'Too small: expected string to have >=1 characters' }
 */
export function read(check: Check, value: unknown): Read {
  const issues: Issue[] = [];
  const out = check(value, [], issues);
  const first = issues[0];
  return first === undefined ? { ok: true, value: out } : { ok: false, path: first.path, message: first.message };
}

const push = (issues: Issue[], path: Path, message: string, fatal: boolean): void => {
  issues.push({ path, message, fatal });
};

const abortedSince = (issues: Issue[], start: number): boolean => {
  for (let i = start; i < issues.length; i++) if (issues[i]!.fatal) return true;
  return false;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's `isPlainObject`: records refuse class instances, but take objects without a prototype. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto = (ctor as { prototype?: unknown }).prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}

/** The "received …" of zod's messages. */
function received(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : Number.isFinite(value) ? 'number' : String(value);
  if (typeof value !== 'object') return typeof value;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const ctor = (value as { constructor?: { name?: string } }).constructor;
  return Object.getPrototypeOf(value) !== Object.prototype && 'constructor' in value && ctor ? String(ctor.name) : 'object';
}

const wrongType = (issues: Issue[], path: Path, expected: string, value: unknown): void =>
  push(issues, path, `Invalid input: expected ${expected}, received ${received(value)}`, true);

/** Code points in `text` (zod counts string lengths this way): a surrogate pair is one. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

/** A string of `min` to `max` code points (zod's `.min()`/`.max()`). */
export const str = (min = 0, max?: number): Check => (value, path, issues) => {
  if (typeof value !== 'string') {
    wrongType(issues, path, 'string', value);
    return value;
  }
  const length = codePoints(value);
  if (length < min) push(issues, path, `Too small: expected string to have >=${min} characters`, false);
  if (max !== undefined && length > max) push(issues, path, `Too big: expected string to have <=${max} characters`, false);
  return value;
};

/** `check`, then `test` on what it read unless a fatal issue came first (zod's `.refine()`, `.regex()`). */
export const refine = (check: Check, test: (value: any) => boolean, message: string, at: Path = []): Check => (value, path, issues) => {
  const start = issues.length;
  const out = check(value, path, issues);
  if (!abortedSince(issues, start) && !test(out)) push(issues, [...path, ...at], message, false);
  return out;
};

/** A string matching `pattern` (zod's `.regex(pattern, message)`). */
export const matches = (pattern: RegExp, message: string): Check => refine(str(), (value: string) => pattern.test(value), message);

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** A finite number (zod's `z.number()`). */
export const num: Check = (value, path, issues) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) wrongType(issues, path, 'number', value);
  return value;
};

/** A safe integer of at least `min` (and at most `max`): zod's `z.int().min().max()`. */
export const int = (min?: number, max?: number): Check => (value, path, issues) => {
  const start = issues.length;
  num(value, path, issues);
  if (issues.length > start) return value;
  if (!Number.isInteger(value)) {
    push(issues, path, 'Invalid input: expected int, received number', true);
    return value;
  }
  const n = value as number;
  if (n > MAX_SAFE) push(issues, path, `Too big: expected int to be <=${MAX_SAFE}`, false);
  if (n < -MAX_SAFE) push(issues, path, `Too small: expected int to be >=${-MAX_SAFE}`, false);
  if (min !== undefined && n < min) push(issues, path, `Too small: expected number to be >=${min}`, false);
  if (max !== undefined && n > max) push(issues, path, `Too big: expected number to be <=${max}`, false);
  return value;
};

export const bool: Check = (value, path, issues) => {
  if (typeof value !== 'boolean') wrongType(issues, path, 'boolean', value);
  return value;
};

/** Anything, `undefined` included (zod's `z.unknown()`). */
export const unknown: Check = (value) => value;

/** Exactly `expected` (zod's `z.literal`). */
export const literal = (expected: string): Check => (value, path, issues) => {
  if (value !== expected) push(issues, path, `Invalid input: expected "${expected}"`, true);
  return value;
};

/** One of `values` (zod's `z.enum`). */
export const oneOf = (values: readonly string[]): Check => (value, path, issues) => {
  if (!values.includes(value as string)) push(issues, path, `Invalid option: expected one of ${values.map((v) => `"${v}"`).join('|')}`, true);
  return value;
};

/** A closed list read leniently (`lenientEnum`): a string not in `values` reads as `fallback`. */
export const closed = (values: readonly string[], fallback: string): Check => (value, path, issues) => {
  if (typeof value !== 'string') {
    wrongType(issues, path, 'string', value);
    return value;
  }
  return values.includes(value) ? value : fallback;
};

/** `null`, or what `check` reads (zod's `.nullable()`). */
export const nullable = (check: Check): Check => (value, path, issues) => (value === null ? null : check(value, path, issues));

/** May be left out of an object, or `undefined` (zod's `.optional()`). */
export const optional = (check: Check): Check => {
  const wrapped = (value: unknown, path: Path, issues: Issue[]) => (value === undefined ? undefined : check(value, path, issues));
  return Object.assign(wrapped, { optional: true as const });
};

/** `make()` when left out or `undefined` (zod's `.default()`, which does not read its default). */
export const withDefault = (check: Check, make: () => unknown): Check => (value, path, issues) => (value === undefined ? make() : check(value, path, issues));

/** `preprocess(value)` read by `check` (zod's `z.preprocess`). */
export const preprocess = (prepare: (value: unknown) => unknown, check: Check): Check => (value, path, issues) => check(prepare(value), path, issues);

/** An object with these keys; others are kept as they are (zod's `z.looseObject`). */
export const object = (shape: Readonly<Record<string, Check>>): Check => {
  const keys = Object.keys(shape);
  return (value, path, issues) => {
    if (!isObject(value)) {
      wrongType(issues, path, 'object', value);
      return value;
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const check = shape[key]!;
      const present = key in value;
      if (!present && check.optional) continue;
      const read = check(value[key], [...path, key], issues);
      if (read !== undefined || present) out[key] = read;
    }
    for (const key in value) {
      // Assigning `__proto__` on a plain object would replace its prototype; zod skips it too.
      if (Object.prototype.hasOwnProperty.call(shape, key) || key === '__proto__') continue;
      out[key] = value[key];
    }
    return out;
  };
};

/** The same object with more keys (zod's `.extend()`): the new keys come after the old ones. */
export const extend = (shape: Readonly<Record<string, Check>>, more: Readonly<Record<string, Check>>): Readonly<Record<string, Check>> => ({ ...shape, ...more });

/** An array of what `check` reads, of at most `max` items. */
export const array = (check: Check, max?: number): Check => (value, path, issues) => {
  if (!Array.isArray(value)) {
    wrongType(issues, path, 'array', value);
    return value;
  }
  const start = issues.length;
  const out = value.map((item, i) => check(item, [...path, i], issues));
  if (max !== undefined && !abortedSince(issues, start) && value.length > max) push(issues, path, `Too big: expected array to have <=${max} items`, false);
  return out;
};

/** A record of string keys (that `key` accepts, when given) to what `check` reads (zod's `z.record`). */
export const record = (check: Check = unknown, key?: Check): Check => (value, path, issues) => {
  if (!isPlainObject(value)) {
    wrongType(issues, path, 'record', value);
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const name of Reflect.ownKeys(value)) {
    if (name === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, name)) continue;
    const keyIssues: Issue[] = [];
    if (typeof name !== 'string') wrongType(keyIssues, [], 'string', name);
    else key?.(name, [], keyIssues);
    if (keyIssues.length > 0) {
      push(issues, [...path, name as string], 'Invalid key in record', true);
      continue;
    }
    out[name as string] = check(value[name as string], [...path, name as string], issues);
  }
  return out;
};

/** The first of `options` that reads `value` without issues (zod's `z.union`). */
export const union = (...options: Check[]): Check => (value, path, issues) => {
  const failed: Array<{ out: unknown; issues: Issue[] }> = [];
  for (const option of options) {
    const own: Issue[] = [];
    const out = option(value, path, own);
    if (own.length === 0) return out;
    failed.push({ out, issues: own });
  }
  const progressed = failed.filter((result) => !abortedSince(result.issues, 0));
  if (progressed.length === 1) {
    issues.push(...progressed[0]!.issues);
    return progressed[0]!.out;
  }
  push(issues, path, 'Invalid input', true);
  return value;
};

/** The option named by `value[key]` (zod's `z.discriminatedUnion`); `options` maps each value of `key` to its check. */
export const discriminated = (key: string, options: ReadonlyArray<readonly [string, Check]>): Check => {
  const byValue = new Map<unknown, Check>(options);
  const expected = options.map(([name]) => `'${name}'`).join(' | ');
  return (value, path, issues) => {
    if (!isObject(value)) {
      wrongType(issues, path, 'object', value);
      return value;
    }
    const option = byValue.get(value[key]);
    if (option === undefined) {
      push(issues, [...path, key], `Invalid discriminator value. Expected ${expected}`, true);
      return value;
    }
    return option(value, path, issues);
  };
};
