/**
 * fast-check arbitraries built from the JSON Schemas of an OpenAPI 3.1 document: values that match
 * the schema most of the time, and hostile ones the rest (any JSON, strings with NUL, lone
 * surrogates, bidi controls and percent signs), so a fuzz run reaches both the handlers and the
 * validation in front of them.
 */
import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

/** Strings a validator must survive. */
export const hostileString = fc.oneof(
  fc.constantFrom('', '\u0000', 'a\u0000b', '\ud800', 'a\udc00b', '\u202Eabc', '\u200B', '%', '%00', '%ED%A0%80', '..', '../..', ' ', '\n', '\\', '"', '{}', 'null'),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 200, maxLength: 400 }),
);

const MAX_DEPTH = 4;

export interface SchemaArbitraries {
  /** A value for the schema: mostly valid, sometimes not. */
  of(schema: JsonSchema | undefined): fc.Arbitrary<unknown>;
}

/**
 * @example
 * const arbs = createSchemaArbitraries(doc.components.schemas);
 * const [body] = fc.sample(arbs.of(op.requestBody.content['application/json'].schema), { numRuns: 1, seed: 1 });
 */
export function createSchemaArbitraries(components: Record<string, JsonSchema>): SchemaArbitraries {
  const stringOf = (schema: JsonSchema): fc.Arbitrary<string> => {
    if (schema.format === 'date-time') return fc.date({ min: new Date(0), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }).map((d) => d.toISOString());
    if (schema.format === 'email') return fc.emailAddress();
    if (typeof schema.pattern === 'string') {
      try {
        return fc.stringMatching(new RegExp(schema.pattern), schema.maxLength === undefined ? {} : { size: 'small' });
      } catch {
        // A pattern fast-check cannot read: plain strings below.
      }
    }
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 64));
    return fc.string({ unit: 'grapheme-ascii', minLength, maxLength });
  };

  // Integers are drawn over the whole documented range (up to 2^53 - 1 where the schema says no
  // less), with its edges and the edges of the database's column types (2^31 - 1, 2^31, 2^63) weighted
  // in: a bound the document states but the storage does not hold is a 500 waiting to happen.
  const numberOf = (schema: JsonSchema, integer: boolean): fc.Arbitrary<number> => {
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -Number.MAX_SAFE_INTEGER);
    const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Number.MAX_SAFE_INTEGER);
    const [lo, hi] = [Math.max(min, -Number.MAX_SAFE_INTEGER), Math.min(max, Number.MAX_SAFE_INTEGER)];
    if (!integer) return fc.double({ min: lo, max: Math.max(lo, hi), noNaN: true, noDefaultInfinity: true });
    const [from, to] = [Math.ceil(lo), Math.floor(Math.max(lo, hi))];
    const edges = [from, from + 1, to - 1, to, 0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, -(2 ** 31) - 1].filter((n) => n >= from && n <= to);
    const small = Math.min(Math.max(from, -1_000), to);
    return fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: small, max: Math.max(Math.min(to, 1_000), small) }) },
      { weight: 2, arbitrary: fc.constantFrom(...edges) },
      { weight: 2, arbitrary: fc.bigInt({ min: BigInt(from), max: BigInt(to) }).map(Number) },
    );
  };

  const objectOf = (schema: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set<string>(schema.required ?? []);
    const shape = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valid(s, depth + 1)]));
    const record = fc.record(shape, { requiredKeys: Object.keys(shape).filter((k) => required.has(k)) });
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && Object.keys(properties).length === 0) {
      return fc.dictionary(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }), valid(schema.additionalProperties, depth + 1), { maxKeys: 3 });
    }
    return record;
  };

  const ofType = (type: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string': return stringOf(schema);
      case 'integer': return numberOf(schema, true);
      case 'number': return numberOf(schema, false);
      case 'boolean': return fc.boolean();
      case 'null': return fc.constant(null);
      case 'array': {
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 4));
        return fc.array(valid(schema.items ?? {}, depth + 1), { minLength, maxLength });
      }
      case 'object': return objectOf(schema, depth);
      default: return fc.jsonValue({ maxDepth: 1 });
    }
  };

  // Mostly valid: what the schema describes, as far as this generator reads it.
  function valid(schema: JsonSchema | undefined, depth: number): fc.Arbitrary<unknown> {
    if (schema === undefined || depth > MAX_DEPTH) return fc.constant(null);
    if (typeof schema.$ref === 'string') return valid(components[schema.$ref.split('/').pop()!], depth + 1);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (alternatives !== undefined) return fc.oneof(...alternatives.map((s) => valid(s, depth + 1)));
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return valid(schema.allOf[0], depth + 1);
    if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((t) => ofType(t, schema, depth)));
    if (typeof schema.type === 'string') return ofType(schema.type, schema, depth);
    if (schema.properties !== undefined) return objectOf(schema, depth);
    return fc.jsonValue({ maxDepth: 2 });
  }

  // Any leaf string may turn hostile.
  const withHostileLeaves = (value: unknown, pick: () => string | null): unknown => {
    if (typeof value === 'string') return pick() ?? value;
    if (Array.isArray(value)) return value.map((v) => withHostileLeaves(v, pick));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withHostileLeaves(v, pick)]));
    return value;
  };

  return {
    of(schema) {
      const base = valid(schema, 0);
      return fc.oneof(
        { weight: 6, arbitrary: base },
        { weight: 2, arbitrary: fc.tuple(base, fc.array(fc.option(hostileString, { freq: 3 }), { minLength: 8, maxLength: 8 })).map(([v, picks]) => {
          let i = 0;
          return withHostileLeaves(v, () => picks[i++ % picks.length] ?? null);
        }) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      );
    },
  };
}
