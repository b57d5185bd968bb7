/**
 * @module apps/bundles/upload
 * Reads an upload: the bundle alone (`application/javascript` or `text/javascript`), or the bundle
 * and its source map as `multipart/form-data` (parts `bundle` and `sourceMap`; `platform deploy`
 * sends this). The bundle is at most 10 MB (the spec's hosted bundle limit), the map at most
 * `LIMITS.hosted.sourceMapBytes` (ours, beside it), counted while streaming: a missing or lying
 * content-length changes nothing. Each is then hashed; the map is checked to be a source map
 * (source-map-check.ts), so a map that would be of no use is refused at the upload with its reason.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { LIMITS, PlatformError, invalidRequest } from '@platform/sdk';
import { readRequestBody } from '../../core/http/read-json.ts';
import { checkSourceMap } from './source-map-check.ts';

export const BUNDLE_CONTENT_TYPES = ['application/javascript', 'text/javascript'] as const;

export interface UploadedBundle {
  bytes: Uint8Array;
  sha256: string;
}

export interface Upload {
  bundle: UploadedBundle;
  sourceMap: UploadedBundle | null;
}

// Part headers and boundaries around the two parts.
const MULTIPART_OVERHEAD = 64 * 1024;

export function isJavaScriptContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return (BUNDLE_CONTENT_TYPES as readonly string[]).includes(type);
}

const isMultipart = (value: string | undefined): boolean => value?.split(';')[0]!.trim().toLowerCase() === 'multipart/form-data';

const hashed = (bytes: Uint8Array): UploadedBundle =>
  ({ bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), sha256: createHash('sha256').update(bytes).digest('hex') });

const notTheBundle = (message: string, path: string[] = []) => invalidRequest([{ path, message, code: 'content_type' }], 'The body must be the bundle');

const tooLarge = (what: 'bundle' | 'sourceMap', limit: number) =>
  new PlatformError('PlatformApiPayloadTooLargeError', `The ${what === 'bundle' ? 'bundle' : 'source map'} is larger than ${limit} bytes`, { path: [what], fields: { limit } });

/**
 * @example
 * const { bytes, sha256 } = await readBundle(c);
 */
export async function readBundle(c: Context, maxBytes: number = LIMITS.manifest.hostedBundleBytes): Promise<UploadedBundle> {
  // The shared capped reader counts the bytes as they stream (a missing or lying content-length
  // cannot get more than the cap into memory); the hash is taken once the body is whole.
  const bytes = await readRequestBody(c, maxBytes);
  if (bytes.byteLength === 0) throw invalidRequest([{ path: [], message: 'The bundle is empty', code: 'empty' }], 'The body must be the bundle');
  return hashed(bytes);
}

/** The parts of a multipart upload, by name; anything but one `bundle` and at most one `sourceMap` is refused. */
async function readParts(c: Context, type: string): Promise<{ bundle: Uint8Array; sourceMap: Uint8Array | null }> {
  const max = LIMITS.manifest.hostedBundleBytes + LIMITS.hosted.sourceMapBytes + MULTIPART_OVERHEAD;
  const body = await readRequestBody(c, max);
  let form: FormData;
  try {
    form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
  } catch {
    throw notTheBundle('The body is not valid multipart/form-data');
  }
  for (const name of new Set(form.keys())) {
    if (name !== 'bundle' && name !== 'sourceMap') throw notTheBundle(`Unknown part "${name.slice(0, 64)}": the parts are bundle and sourceMap`, [name.slice(0, 64)]);
    if (form.getAll(name).length > 1) throw notTheBundle(`More than one ${name} part`, [name]);
  }
  const part = async (name: string): Promise<Uint8Array | null> => {
    const value = form.get(name);
    if (value === null) return null;
    return typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(await value.arrayBuffer());
  };
  const bundle = await part('bundle');
  if (bundle === null) throw notTheBundle('The bundle part is missing', ['bundle']);
  return { bundle, sourceMap: await part('sourceMap') };
}

/**
 * The upload of `POST /v0/apps/{app_id}/versions`: the bundle, and its source map when sent.
 * @example const { bundle, sourceMap } = await readUpload(c);
 */
export async function readUpload(c: Context): Promise<Upload> {
  const type = c.req.header('content-type');
  if (isJavaScriptContentType(type)) return { bundle: await readBundle(c), sourceMap: null };
  if (!isMultipart(type)) throw notTheBundle('Content-Type must be application/javascript, or multipart/form-data with the parts bundle and sourceMap');
  const parts = await readParts(c, type!);
  if (parts.bundle.byteLength > LIMITS.manifest.hostedBundleBytes) throw tooLarge('bundle', LIMITS.manifest.hostedBundleBytes);
  if (parts.bundle.byteLength === 0) throw invalidRequest([{ path: ['bundle'], message: 'The bundle is empty', code: 'empty' }], 'The body must be the bundle');
  if (parts.sourceMap === null) return { bundle: hashed(parts.bundle), sourceMap: null };
  if (parts.sourceMap.byteLength > LIMITS.hosted.sourceMapBytes) throw tooLarge('sourceMap', LIMITS.hosted.sourceMapBytes);
  const problem = checkSourceMap(parts.sourceMap);
  if (problem !== null) throw invalidRequest([{ path: ['sourceMap', ...problem.path], message: problem.message, code: 'source_map' }], `The source map is not usable: ${problem.message}`);
  return { bundle: hashed(parts.bundle), sourceMap: hashed(parts.sourceMap) };
}
