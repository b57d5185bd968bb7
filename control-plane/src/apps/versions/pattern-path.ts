/**
 * @module apps/versions/pattern-path
 * Where a regular expression sits in a JSON Schema, so a refused pattern is reported at its
 * keyword (`properties/slug/pattern`, `patternProperties/<pattern>`) rather than at the whole
 * schema. ajv's regular-expression engine is only handed the pattern text, so the place is found
 * by walking the schema the way ajv reads it: subschemas only, never data (`const`, `enum`,
 * `default`, `examples`, unknown keywords).
 */

type Path = Array<string | number>;

const SCHEMA = new Set([
  'additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else',
  'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'items',
]);
const SCHEMA_ARRAY = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The path of the first `pattern` keyword or `patternProperties` key equal to `pattern`, or null.
 * @example findPatternPath({ properties: { slug: { pattern: '(?=a)' } } }, '(?=a)') // ['properties', 'slug', 'pattern']
 */
export function findPatternPath(schema: unknown, pattern: string, path: Path = []): Path | null {
  if (!isObject(schema)) return null;
  if (schema.pattern === pattern) return [...path, 'pattern'];
  const patternProperties = schema.patternProperties;
  if (isObject(patternProperties) && Object.hasOwn(patternProperties, pattern)) return [...path, 'patternProperties', pattern];
  for (const [keyword, value] of Object.entries(schema)) {
    let found: Path | null = null;
    if (Array.isArray(value) && SCHEMA_ARRAY.has(keyword)) {
      for (const [i, member] of value.entries()) if ((found = findPatternPath(member, pattern, [...path, keyword, i]))) break;
    } else if (SCHEMA.has(keyword)) {
      found = findPatternPath(value, pattern, [...path, keyword]);
    } else if (SCHEMA_MAP.has(keyword) && isObject(value)) {
      for (const [name, member] of Object.entries(value)) if ((found = findPatternPath(member, pattern, [...path, keyword, name]))) break;
    }
    if (found) return found;
  }
  return null;
}
