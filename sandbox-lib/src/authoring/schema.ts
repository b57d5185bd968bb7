/**
 * @module authoring/schema
 * Schemas as authors write them: a zod schema (typed handlers, parsed values) or a JSON Schema
 * (taken as is). The manifest needs JSON Schema, computed here with the schema's own
 * `toJSONSchema()` (zod 4's `z.toJSONSchema`, reached through the app's copy of zod), so nothing of
 * the app runs to compute it and the SDK itself imports no zod: an app that does not use zod bundles
 * none. Zod schemas are recognised by their `_zod` slot rather than with `instanceof`, so an app
 * bundling its own copy of zod 4 works too.
 */
import type { z } from 'zod';
import type { JsonSchema } from '../manifest/index.ts';
import { AppDefinitionError, type DefinitionPath } from './errors.ts';

/** A schema as written in a definition: zod, or a JSON Schema object or boolean. */
export type SchemaInput = z.ZodType | Readonly<Record<string, unknown>> | boolean;

/** The value a schema describes: zod's output type, or a JSON object for a JSON Schema. */
export type Infer<S> = S extends z.ZodType ? z.output<S> : Record<string, unknown>;

/**
 * True for a zod 4 schema (from any copy of zod).
 * @example isZodSchema(z.string()) // true; isZodSchema({ type: 'string' }) // false
 */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/**
 * Which side of a transform the JSON Schema describes: `input` for what the app accepts from
 * others (props, args, form input, install config), `output` for what the app produces and the
 * service stores (state).
 */
export type SchemaSide = 'input' | 'output';

/**
 * The JSON Schema (draft 2020-12) of a schema input. Throws `AppDefinitionError` at `path` when
 * zod cannot express it (transforms on the output side, dates, functions) or the object is not JSON.
 * @example toJsonSchema(z.object({ count: z.int() }), 'output', ['blocks', 0, 'state'])
 */
export function toJsonSchema(schema: SchemaInput, side: SchemaSide, path: DefinitionPath): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  if (isZodSchema(schema)) {
    const convert = (schema as { toJSONSchema?: unknown }).toJSONSchema;
    // zod/mini schemas have no methods; their JSON Schema is z.toJSONSchema(schema) of the app's zod.
    if (typeof convert !== 'function') throw new AppDefinitionError(path, 'this zod schema has no toJSONSchema() (zod/mini?): give zod\'s classic schema, or its JSON Schema (z.toJSONSchema(schema))');
    try {
      return convert.call(schema, { io: side, target: 'draft-2020-12', unrepresentable: 'throw' }) as JsonSchema;
    } catch (error) {
      throw new AppDefinitionError(path, `this zod schema has no JSON Schema (${(error as Error).message})`, { cause: error });
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new AppDefinitionError(path, 'expected a zod schema or a JSON Schema (an object or a boolean)');
  }
  try {
    // A copy, so the manifest is plain JSON and later changes to the author's object do not leak in.
    return JSON.parse(JSON.stringify(schema)) as JsonSchema;
  } catch (error) {
    throw new AppDefinitionError(path, 'this JSON Schema is not plain JSON (a cycle or a BigInt?)', { cause: error });
  }
}

/** The named fields of a type, without the index signature a loose zod object adds (which `Omit` would keep alone). */
export type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; path: Array<string | number> };

/**
 * Reads `value` with a zod schema (its output, defaults applied); a JSON Schema is not checked here
 * (the service checks it) and the value passes through.
 * @example parseWith(z.object({ n: z.int() }), { n: 1 }) // { ok: true, value: { n: 1 } }
 */
export function parseWith<T = unknown>(schema: SchemaInput | undefined, value: unknown): Parsed<T> {
  if (schema === undefined || !isZodSchema(schema)) return { ok: true, value: value as T };
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data as T };
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).filter((key): key is string | number => typeof key !== 'symbol');
  return { ok: false, message: issue?.message ?? 'does not match its schema', path };
}
