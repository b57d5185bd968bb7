/**
 * @module core/http/openapi
 * Builds an OpenAPI 3.1 document from the zod schemas the routes themselves parse with, so the
 * document cannot drift from the code. Shared and recursive schemas (those with a `.meta({ id })`)
 * become components; everything else is inlined where it is used.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  method: string;
  /** OpenAPI-style path under the API's base, e.g. `/circles/{circleId}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: z.ZodType;
  /** A body the handler reads itself: media type → JSON Schema. */
  requestContent?: Record<string, JsonSchema>;
  query?: z.ZodType;
  success: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  errors: Array<{ status: number; description: string }>;
}

export interface OpenApiInput {
  title: string;
  version: string;
  description: string;
  basePath: string;
  securitySchemes: Record<string, JsonSchema>;
  operations: readonly OpenApiOperation[];
}

export const ErrorBodySchema = z
  .object({
    _tag: z.string().describe('Failure name, e.g. PlatformApiInvalidRequestError'),
    message: z.string(),
    path: z.array(z.union([z.string(), z.number()])).describe('Locates the offending field; often empty'),
    issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string(), code: z.string().optional() })).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'Error' });

/** Collects component schemas while converting, refusing two different schemas under one name. */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  add(name: string, schema: JsonSchema): void {
    const existing = this.schemas[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`Two different schemas are named ${name} in the OpenAPI document`);
    }
    this.schemas[name] = schema;
  }

  /** zod → JSON Schema, with its `$defs` moved to components and references pointed at them. */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const raw = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
    const { $schema: _drop, $defs, ...rest } = raw;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.add(name, relink(def) as JsonSchema);
    }
    return relink(rest) as JsonSchema;
  }

  /** A named component for `schema`, returned as a reference to it. */
  named(name: string, schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = this.convert(schema, io);
    if (typeof converted.$ref === 'string' && Object.keys(converted).length === 1) return converted;
    this.add(name, converted);
    return { $ref: `#/components/schemas/${name}` };
  }
}

function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
      ? `#/components/schemas/${v.slice('#/$defs/'.length)}`
      : relink(v);
  }
  return out;
}

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

function queryParameters(components: Components, query: z.ZodType): JsonSchema[] {
  const schema = components.convert(query, 'input');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
}

/**
 * @example
 * const doc = buildOpenApiDocument({ title: 'Client API', version: '1', description: '…', basePath: '/client/v1', securitySchemes: {}, operations: [] });
 */
export function buildOpenApiDocument(input: OpenApiInput): JsonSchema {
  const components = new Components();
  const errorRef = components.named('Error', ErrorBodySchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of input.operations) {
    const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const parameters = [...params, ...(op.query ? queryParameters(components, op.query) : [])];
    const responses: Record<string, unknown> = {
      // A JSON answer with another form besides (`format=csv`): both media types, the JSON one with its schema.
      [op.success.status]: op.success.contentType !== undefined && op.success.schema !== undefined
        ? { description: op.success.description, content: {
          'application/json': { schema: components.named(`${pascal(op.operationId)}Response`, op.success.schema, 'output') },
          [op.success.contentType]: { schema: { type: 'string' } },
        } }
        : op.success.contentType !== undefined
        ? { description: op.success.description, content: { [op.success.contentType]: { schema: { type: op.success.contentType.endsWith('json') ? 'object' : 'string' } } } }
        : op.success.schema === undefined
        ? { description: op.success.description }
        : { description: op.success.description, content: { 'application/json': { schema: components.named(`${pascal(op.operationId)}Response`, op.success.schema, 'output') } } },
    };
    for (const e of op.errors) {
      responses[e.status] = { description: e.description, content: { 'application/json': { schema: errorRef } } };
    }
    const operation: Record<string, unknown> = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description === undefined ? {} : { description: op.description }),
      tags: [op.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.requestBody === undefined ? {} : {
        requestBody: { required: true, content: { 'application/json': { schema: components.named(`${pascal(op.operationId)}Request`, op.requestBody, 'input') } } },
      }),
      ...(op.requestContent === undefined ? {} : {
        requestBody: { required: true, content: Object.fromEntries(Object.entries(op.requestContent).map(([type, schema]) => [type, { schema }])) },
      }),
      responses,
      security: op.security ?? [],
    };
    (paths[op.path] ??= {})[op.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version, description: input.description },
    servers: [{ url: input.basePath }],
    paths,
    components: { schemas: components.schemas, securitySchemes: input.securitySchemes },
  };
}
