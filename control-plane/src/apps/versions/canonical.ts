/**
 * @module apps/versions/canonical
 * Canonical JSON (object keys sorted, no whitespace) and its sha256: two manifests that mean the
 * same JSON hash the same, whatever order their keys came in. Arrays keep their order (order is
 * meaningful in a manifest: options, patterns).
 */
import { createHash } from 'node:crypto';

/** Serializes without recursion, so a deep value cannot exhaust the stack. */
const RAW = Symbol('raw');
type Raw = { [RAW]: string };
const raw = (s: string): Raw => ({ [RAW]: s });

export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item !== null && typeof item === 'object' && RAW in item) {
      out.push((item as Raw)[RAW]);
      continue;
    }
    if (item === null || typeof item !== 'object') {
      // undefined inside objects is skipped below; a bare undefined serializes as null, like in arrays.
      out.push(item === undefined ? 'null' : JSON.stringify(item));
      continue;
    }
    if (Array.isArray(item)) {
      const parts: unknown[] = [raw('[')];
      item.forEach((v, i) => parts.push(...(i > 0 ? [raw(',')] : []), v));
      parts.push(raw(']'));
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
      continue;
    }
    const keys = Object.keys(item).filter((k) => (item as Record<string, unknown>)[k] !== undefined).sort();
    const parts: unknown[] = [raw('{')];
    keys.forEach((k, i) => parts.push(raw(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`), (item as Record<string, unknown>)[k]));
    parts.push(raw('}'));
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
  }
  return out.join('');
}

/**
 * @example
 * manifestSha256({ b: 1, a: 2 }) === manifestSha256({ a: 2, b: 1 }) // true
 */
export function manifestSha256(manifest: unknown): string {
  return createHash('sha256').update(canonicalJson(manifest), 'utf8').digest('hex');
}
