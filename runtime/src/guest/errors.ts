/**
 * @module guest/errors
 * Turns anything a guest throws into two bounded strings. Every property read is guarded: thrown
 * values may be null, proxies, or objects whose getters throw; their text is untrusted.
 */
import { GUEST_LIMITS } from '../shared/bridge.ts';

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

export function describeError(err: unknown): { message: string; stack: string } {
  if (typeof err !== 'object' || err === null) {
    return { message: cut(safeString(() => String(err)) ?? 'a value that cannot be described', GUEST_LIMITS.errorMessageChars), stack: '' };
  }
  const obj = err as { name?: unknown; message?: unknown; stack?: unknown };
  const name = safeString(() => obj.name) ?? 'Error';
  const message = safeString(() => obj.message) ?? safeString(() => String(err)) ?? 'an object that cannot be described';
  const stack = safeString(() => obj.stack) ?? '';
  return {
    message: cut(`${cut(name, 100)}: ${message}`, GUEST_LIMITS.errorMessageChars),
    stack: cut(stack, GUEST_LIMITS.errorStackChars),
  };
}
