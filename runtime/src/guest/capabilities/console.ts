/**
 * @module guest/capabilities/console
 * `console.*` formats its arguments inside the isolate and posts one line to the host, which caps
 * and stores it in the app's log. Nothing is written to the node's own output. An Error among the
 * arguments (or an error-shaped field of a plain object argument, as the SDK logs them) is not
 * printed into the text: it goes beside it as its name, message and stack, which the host turns
 * into frames of the author's sources (sandbox/stacks.ts).
 */
import { GUEST_LIMITS } from '../../shared/bridge.ts';
import { postHost } from '../web/bridge.ts';
import { describeError, isErrorLike } from '../web/errors.ts';
import type { GuestCapability } from './types.ts';

function describe(value: unknown, depth: number, seen: Set<object>): string {
  if (typeof value === 'string') return depth === 0 ? value : JSON.stringify(value);
  if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
  if (typeof value === 'symbol' || typeof value === 'bigint') return value.toString() + (typeof value === 'bigint' ? 'n' : '');
  if (typeof value !== 'object' || value === null) return String(value);
  if (seen.has(value)) return '[Circular]';
  // The line's own error goes beside the text (splitError); any further one is named here.
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (depth > 3) return Array.isArray(value) ? '[Array]' : '[Object]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return `[ ${value.slice(0, 100).map((v) => describe(v, depth + 1, seen)).join(', ')}${value.length > 100 ? ', …' : ''} ]`;
    if (value instanceof Map) return `Map(${value.size}) { ${[...value].slice(0, 100).map(([k, v]) => `${describe(k, depth + 1, seen)} => ${describe(v, depth + 1, seen)}`).join(', ')} }`;
    if (value instanceof Set) return `Set(${value.size}) { ${[...value].slice(0, 100).map((v) => describe(v, depth + 1, seen)).join(', ')} }`;
    if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.byteLength})`;
    const entries = Object.keys(value).slice(0, 100).map((k) => `${k}: ${describe((value as Record<string, unknown>)[k], depth + 1, seen)}`);
    return `{ ${entries.join(', ')} }`;
  } finally {
    seen.delete(value);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** The arguments to print and the first error among them (taken out of the text). */
export function splitError(args: unknown[]): { shown: unknown[]; error: unknown } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (isErrorLike(arg)) return { shown: [...args.slice(0, i), ...args.slice(i + 1)], error: arg };
    if (!isPlainObject(arg)) continue;
    const keys = Object.keys(arg).slice(0, 100);
    const key = keys.find((k) => isErrorLike(arg[k]));
    if (key === undefined) continue;
    const rest = Object.fromEntries(keys.filter((k) => k !== key).map((k) => [k, arg[k]]));
    const kept = keys.length > 1 ? [rest] : [];
    return { shown: [...args.slice(0, i), ...kept, ...args.slice(i + 1)], error: arg[key] };
  }
  return { shown: args, error: undefined };
}

function format(args: unknown[]): string {
  let line = '';
  for (let i = 0; i < args.length; i++) {
    let part: string;
    try {
      part = describe(args[i], 0, new Set());
    } catch {
      part = '[value that cannot be described]';
    }
    line += (i > 0 ? ' ' : '') + part;
    if (line.length > GUEST_LIMITS.logLineChars) break;
  }
  return line.length > GUEST_LIMITS.logLineChars ? line.slice(0, GUEST_LIMITS.logLineChars) + '…' : line;
}

export const consoleCapability: GuestCapability = {
  name: 'console',
  install(define) {
    const line = (level: string) => (...args: unknown[]): void => {
      let split: { shown: unknown[]; error: unknown };
      try {
        split = splitError(args);
      } catch {
        split = { shown: args, error: undefined };
      }
      if (split.error === undefined) return postHost('console', 'line', level, format(args));
      const error = describeError(split.error);
      // `console.error(err)` alone: the line reads as the error's first line.
      postHost('console', 'line', level, split.shown.length === 0 ? error.message : format(split.shown), error.name, error.text, error.stack);
    };
    const counts = new Map<string, number>();
    const timers = new Map<string, number>();
    define('console', {
      log: line('log'),
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      debug: line('debug'),
      trace: line('debug'),
      assert: (condition: unknown, ...args: unknown[]) => { if (!condition) line('error')('Assertion failed:', ...args); },
      count: (label = 'default') => { const n = (counts.get(label) ?? 0) + 1; counts.set(label, n); line('log')(`${label}: ${n}`); },
      time: (label = 'default') => { timers.set(label, Date.now()); },
      timeEnd: (label = 'default') => { const t = timers.get(label); timers.delete(label); if (t !== undefined) line('log')(`${label}: ${Date.now() - t}ms`); },
    });
  },
};

export { format as formatConsoleArgs };
