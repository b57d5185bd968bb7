/**
 * @module guest/web/errors
 * Turns anything a guest throws into bounded strings: its name, its message, the two as one line
 * (`TypeError: boom`), and its stack as V8 wrote it. Every property read is guarded: thrown values
 * may be null, proxies, or objects whose getters throw; their text is untrusted. The host parses
 * the stack into frames and maps them through the version's source map (sandbox/stacks.ts).
 */
import { GUEST_LIMITS } from '../../shared/bridge.ts';

export interface DescribedError {
  /** `Name: message`, one line. */
  message: string;
  stack: string;
  name: string;
  text: string;
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}

function safeString(read: () => unknown): string | null {
  try {
    const v = read();
    return typeof v === 'string' ? v : v === undefined ? null : String(v);
  } catch {
    return null;
  }
}

export function describeError(err: unknown): DescribedError {
  if (typeof err !== 'object' || err === null) {
    const text = cut(safeString(() => String(err)) ?? 'a value that cannot be described', GUEST_LIMITS.errorMessageChars);
    return { message: text, stack: '', name: 'Thrown value', text };
  }
  const obj = err as { name?: unknown; message?: unknown; stack?: unknown };
  const name = cut(safeString(() => obj.name) ?? 'Error', 100);
  const message = safeString(() => obj.message) ?? safeString(() => String(err)) ?? 'an object that cannot be described';
  const stack = safeString(() => obj.stack) ?? '';
  return {
    message: cut(`${name}: ${message}`, GUEST_LIMITS.errorMessageChars),
    stack: cut(stack, GUEST_LIMITS.errorStackChars),
    name,
    text: cut(message, GUEST_LIMITS.errorMessageChars),
  };
}

/**
 * An error found among a console call's arguments: an Error, or an object shaped like one (the
 * SDK logs `{ name, message, stack }` records), at the top level or as a field of a plain object
 * argument (`console.error('Request failed', { error })`). The first one found is the line's error.
 */
export function isErrorLike(value: unknown): value is { name?: unknown; message: unknown; stack: unknown } {
  if (value instanceof Error) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  try {
    const v = value as { message?: unknown; stack?: unknown };
    return typeof v.message === 'string' && typeof v.stack === 'string';
  } catch {
    return false;
  }
}
