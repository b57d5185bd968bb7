/**
 * @module core/http/read-json
 * Reads a JSON request body under a byte cap and parses it with a zod schema. Every way a body can be
 * wrong (content type, size, encoding, syntax, nesting, a key written twice, shape) ends in a tagged 4xx, never a 5xx.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { PlatformError, declaredOver, invalidRequest, readCapped, type RequestIssue } from '@platform/sdk';
import { duplicateKeyPath } from './duplicate-keys.ts';
import { jsonDepth } from './json.ts';
import { assertCleanJson } from './request-strings.ts';

export interface ReadJsonOptions {
  /** Largest body accepted, in bytes (counted while reading, not taken from content-length). */
  maxBytes: number;
  /** Deepest nesting of arrays and objects accepted; deeper input would only exhaust the stack. */
  maxDepth?: number;
  /** The error a body nested deeper than `maxDepth` answers (default: the parser's `400`). */
  tooDeep?: () => PlatformError;
  /**
   * Keep NUL and lone surrogates in strings instead of refusing the body. Only for internal batches
   * that carry guest output verbatim (a node's log lines), whose store replaces them; every public
   * route refuses them.
   */
  keepIllFormedStrings?: boolean;
}

export const DEFAULT_MAX_DEPTH = 64;

export function payloadTooLarge(limit: number): PlatformError {
  return new PlatformError('PlatformApiPayloadTooLargeError', `The request body is larger than ${limit} bytes`, { fields: { limit } });
}

/** `application/json` or any `+json` type, parameters (charset) allowed. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Reads the whole stream under the cap (`readCapped` of @platform/sdk, the packages' one capped
 * reader), or throws the `413`.
 * @example const bytes = await readWithin(c.req.raw.body, 16 * 1024);
 */
export async function readWithin(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  const bytes = await readCapped(body, maxBytes);
  if (bytes === null) throw payloadTooLarge(maxBytes);
  return bytes;
}

/**
 * The request's whole body under the cap, or the `413`: a declared length over the cap is refused
 * before a byte is read, and the bytes are counted as they stream.
 * @example const bytes = await readRequestBody(c, LIMITS.blockData.imageBytes);
 */
export async function readRequestBody(c: Context, maxBytes: number): Promise<Uint8Array> {
  if (declaredOver(c.req.header('content-length'), maxBytes)) throw payloadTooLarge(maxBytes);
  return readWithin(c.req.raw.body, maxBytes);
}

/** zod issues as the spec's `issues[]`; an unknown key becomes one issue whose path ends at that key. */
export function toRequestIssues(error: z.ZodError): RequestIssue[] {
  const issues: RequestIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: [...path, key], message: `Unknown field "${key}"`, code: issue.code });
    } else {
      issues.push({ path, message: issue.message, code: issue.code });
    }
  }
  return issues;
}

/** Parses `value` with `schema`, or throws the 400 with every problem listed. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidRequest(toRequestIssues(result.error));
  return result.data;
}

/**
 * Throws the 400 naming the first key written twice in one object (core/http/duplicate-keys.ts);
 * `keys` is the parsed value's key count when the string check has counted it.
 */
export function assertUniqueKeys(text: string, keys?: number): void {
  const path = duplicateKeyPath(text, keys);
  if (path === null) return;
  const key = String(path[path.length - 1]);
  throw invalidRequest([{ path, message: `The field "${key.slice(0, 100)}" appears more than once in one object`, code: 'duplicate_key' }]);
}

/**
 * @example
 * const body = await readJson(c, CreateCircleBody, { maxBytes: 16 * 1024 });
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S, options: ReadJsonOptions): Promise<z.output<S>> {
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw invalidRequest([{ path: [], message: 'Content-Type must be application/json', code: 'content_type' }], 'The request body must be JSON');
  }
  // A declared length over the cap is refused before reading a byte. A body within its declared
  // length is read in one piece (the HTTP parser delivers no more than that length, and the count
  // below still applies); one without a length is counted while it streams.
  const length = c.req.header('content-length');
  const declared = length !== undefined && /^\d{1,15}$/.test(length) ? Number(length) : null;
  if (declared !== null && declared > options.maxBytes) throw payloadTooLarge(options.maxBytes);
  const bytes = declared === null ? await readWithin(c.req.raw.body, options.maxBytes) : new Uint8Array(await c.req.raw.arrayBuffer());
  if (bytes.byteLength > options.maxBytes) throw payloadTooLarge(options.maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidRequest([{ path: [], message: 'The body is not valid UTF-8', code: 'invalid_encoding' }], 'The request body is not valid JSON');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalidRequest([{ path: [], message: `Malformed JSON: ${(err as Error).message}`, code: 'malformed_json' }], 'The request body is not valid JSON');
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (jsonDepth(value) > maxDepth) {
    if (options.tooDeep !== undefined) throw options.tooDeep();
    throw invalidRequest([{ path: [], message: `JSON nests deeper than ${maxDepth} levels`, code: 'too_deep' }]);
  }
  const keys = options.keepIllFormedStrings === true ? undefined : assertCleanJson(value);
  assertUniqueKeys(text, keys);
  return parseWith(schema, value);
}
