/**
 * @module guest/web/clone
 * structuredClone for the value types the HTML standard's algorithm covers in an isolate without
 * a DOM: primitives, wrappers, Date, RegExp, ArrayBuffer and views, Map, Set, Array, plain objects
 * and Errors, with cycles preserved.
 */
import { DOMException } from './events.ts';

const ERRORS: Record<string, ErrorConstructor> = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

function cloneError(what: string): DOMException {
  return new DOMException(`${what} could not be cloned`, 'DataCloneError');
}

export function structuredClone<T>(value: T, _options?: { transfer?: unknown[] }): T {
  const seen = new Map<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'function') throw cloneError('A function');
    if (typeof v === 'symbol') throw cloneError('A symbol');
    if (typeof v !== 'object' || v === null) return v;
    const known = seen.get(v);
    if (known !== undefined) return known;
    const remember = <U>(copy: U): U => { seen.set(v, copy); return copy; };
    if (v instanceof Boolean) return remember(new Boolean(v.valueOf()));
    if (v instanceof Number) return remember(new Number(v.valueOf()));
    if (v instanceof String) return remember(new String(v.valueOf()));
    if (v instanceof Date) return remember(new Date(v.getTime()));
    if (v instanceof RegExp) return remember(new RegExp(v.source, v.flags));
    if (v instanceof ArrayBuffer) return remember(v.slice(0));
    if (ArrayBuffer.isView(v)) {
      const buffer = walk(v.buffer) as ArrayBuffer;
      if (v instanceof DataView) return remember(new DataView(buffer, v.byteOffset, v.byteLength));
      const Ctor = v.constructor as new (b: ArrayBuffer, o: number, l: number) => ArrayBufferView;
      const BYTES = (v as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
      return remember(new Ctor(buffer, v.byteOffset, v.byteLength / BYTES));
    }
    if (v instanceof Map) {
      const copy = remember(new Map());
      for (const [k, val] of v) copy.set(walk(k), walk(val));
      return copy;
    }
    if (v instanceof Set) {
      const copy = remember(new Set());
      for (const val of v) copy.add(walk(val));
      return copy;
    }
    if (v instanceof Error) {
      const name = String(v.name);
      const Ctor = ERRORS[name] ?? Error;
      const copy = remember(new Ctor(String(v.message)));
      if (typeof v.stack === 'string') copy.stack = v.stack;
      if ('cause' in v) (copy as Error & { cause?: unknown }).cause = walk(v.cause);
      return copy;
    }
    if (Array.isArray(v)) {
      const copy = remember(new Array(v.length));
      for (let i = 0; i < v.length; i++) if (i in v) copy[i] = walk(v[i]);
      return copy;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw cloneError(`An object of type ${Object.prototype.toString.call(v)}`);
    const copy = remember({} as Record<string, unknown>);
    for (const key of Object.keys(v)) copy[key] = walk((v as Record<string, unknown>)[key]);
    return copy;
  };
  return walk(value) as T;
}
