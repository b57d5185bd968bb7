/**
 * @module json-schema/json-size
 * Sizes of JSON values measured without recursion, so hostile nesting (a million `[`) cannot blow
 * the stack the way `JSON.stringify` would. Sizes are those of the compact serialization in UTF-8.
 */

/**
 * UTF-8 byte length of a string. Lone surrogates count as the 3 bytes of U+FFFD, as `TextEncoder` writes them.
 * @example utf8Length('é✓') // 5
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes of a JSON primitive once serialized, or `null` when the value is not a JSON primitive. */
export function primitiveBytes(value: unknown): number | null {
  if (value === null) return 4;
  switch (typeof value) {
    case 'boolean': return value ? 4 : 5;
    case 'number': return Number.isFinite(value) ? String(value).length : null;
    // JSON.stringify of a string never recurses; it escapes lone surrogates to ASCII.
    case 'string': return utf8Length(JSON.stringify(value));
    default: return null;
  }
}

/**
 * True for arrays and plain objects (prototype `Object.prototype` or `null`): the JSON containers.
 * @example isJsonContainer(new Date()) // false
 */
export function isJsonContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export interface JsonSize {
  readonly bytes: number;
  readonly depth: number;
}

/**
 * The serialized size and nesting depth of a JSON value, or `null` when it is not JSON or when
 * it exceeds `maxBytes` or `maxDepth` (measurement stops there, so cost is bounded by the caps).
 * Object members whose value is `undefined` are skipped, as `JSON.stringify` does.
 * @example jsonSize({ a: [1, 2] }, { maxBytes: 100, maxDepth: 10 }) // { bytes: 13, depth: 2 }
 */
export function jsonSize(value: unknown, limits: { maxBytes: number; maxDepth: number }): JsonSize | null {
  let bytes = 0;
  let depth = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (isJsonContainer(item.value)) {
      const level = item.depth + 1;
      if (level > limits.maxDepth) return null;
      if (level > depth) depth = level;
      const entries = Array.isArray(item.value) ? item.value.map((v) => [null, v] as const) : Object.entries(item.value).filter(([, v]) => v !== undefined);
      bytes += 2 + Math.max(0, entries.length - 1);
      for (const [key, child] of entries) {
        if (key !== null) bytes += utf8Length(JSON.stringify(key)) + 1;
        stack.push({ value: child, depth: level });
      }
    } else {
      const size = primitiveBytes(item.value);
      if (size === null) return null;
      bytes += size;
    }
    if (bytes > limits.maxBytes) return null;
  }
  return { bytes, depth };
}
