/**
 * @module json-schema/keywords
 * Which JSON Schema keywords hold subschemas, and in what form. The budget walker needs this to
 * tell a `$ref` keyword from a property that happens to be named `$ref` (inside `properties`) or
 * from data (`const`, `enum`, `default`, `examples` and unknown keywords are never schemas).
 * Covers drafts 7, 2019-09 and 2020-12.
 */

/** Where a value sits: a schema, an array of schemas, a map from names to schemas, or plain data. */
export type Position = 'schema' | 'schemaArray' | 'schemaMap' | 'data';

const SINGLE = new Set([
  'additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else',
  'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
]);
const ARRAY = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** The position of the value under `keyword` of a schema object. */
export function keywordPosition(keyword: string, value: unknown): Position {
  if (SINGLE.has(keyword)) return 'schema';
  if (ARRAY.has(keyword)) return 'schemaArray';
  if (MAP.has(keyword)) return 'schemaMap';
  // `items` is one schema (2020-12) or an array of schemas (older drafts).
  if (keyword === 'items') return Array.isArray(value) ? 'schemaArray' : 'schema';
  // Draft 7 `dependencies` maps names to schemas or to arrays of property names.
  if (keyword === 'dependencies') return 'schemaMap';
  return 'data';
}

/** The position of the members of a container sitting at `position`. */
export function memberPosition(position: Position, key: string, value: unknown): Position {
  switch (position) {
    case 'schema': return keywordPosition(key, value);
    case 'schemaArray': return 'schema';
    case 'schemaMap': return Array.isArray(value) ? 'data' : 'schema';
    case 'data': return 'data';
  }
}
