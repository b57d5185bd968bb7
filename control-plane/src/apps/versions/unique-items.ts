/**
 * @module apps/versions/unique-items
 * `uniqueItems` for app schemas in linear time. ajv compares every pair of items with a deep
 * equality unless the items are declared scalars: O(n²), so an app returning 64 KB of state with
 * 6,000 small objects under `uniqueItems: true` held the control plane's one event loop for about
 * half a second per click (measured). Here each item becomes one canonical string (JSON Schema
 * equality: numbers by value, objects by their key set in any order) and a Set finds the first
 * repeat.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { SchemaValidateFunction } from 'ajv/dist/types/index.js';

/**
 * Nesting beyond this is not compared (treated as distinct). Block data is refused deeper than the
 * manifest's schema depth long before this, and ajv itself recurses through the same data.
 */
const MAX_DEPTH = 1000;

/** One string per value such that two values get the same string exactly when JSON Schema calls them equal. */
export function canonicalKey(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) return `\u0000deep${Math.random()}`;
  if (Array.isArray(value)) return `[${value.map((item) => canonicalKey(item, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${canonicalKey(record[key], depth + 1)}`).join(',')}}`;
  }
  // Numbers print by value (1 and 1.0 are both "1"); strings are quoted, so "1" and 1 differ.
  return JSON.stringify(value) ?? 'null';
}

/** The first pair of equal items `[earlier, later]`, or null when all are distinct. */
export function firstDuplicate(items: readonly unknown[]): [number, number] | null {
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const key = canonicalKey(items[i]);
    const earlier = seen.get(key);
    if (earlier !== undefined) return [earlier, i];
    seen.set(key, i);
  }
  return null;
}

/** Replaces ajv's `uniqueItems` with the linear one, keeping ajv's error shape and message. */
export function useLinearUniqueItems(ajv: Ajv2020): void {
  ajv.removeKeyword('uniqueItems');
  const validate: SchemaValidateFunction = (schema: boolean, data: unknown): boolean => {
    if (!schema || !Array.isArray(data)) return true;
    const pair = firstDuplicate(data);
    if (pair === null) return true;
    const [j, i] = pair;
    validate.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } }];
    return false;
  };
  ajv.addKeyword({ keyword: 'uniqueItems', schemaType: 'boolean', validate, errors: true });
}
