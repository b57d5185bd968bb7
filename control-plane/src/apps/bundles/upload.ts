/**
 * @module apps/bundles/upload
 * Reads an uploaded bundle: `application/javascript` (or `text/javascript`), at most 10 MB counted
 * while streaming (a missing or lying content-length changes nothing), then hashed.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { LIMITS, invalidRequest } from '@platform/sdk';
import { payloadTooLarge, readWithin } from '../../core/http/read-json.ts';

export const BUNDLE_CONTENT_TYPES = ['application/javascript', 'text/javascript'] as const;

export interface UploadedBundle {
  bytes: Uint8Array;
  sha256: string;
}

export function isJavaScriptContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return (BUNDLE_CONTENT_TYPES as readonly string[]).includes(type);
}

/**
 * @example
 * const { bytes, sha256 } = await readBundle(c);
 */
export async function readBundle(c: Context, maxBytes: number = LIMITS.manifest.hostedBundleBytes): Promise<UploadedBundle> {
  if (!isJavaScriptContentType(c.req.header('content-type'))) {
    throw invalidRequest([{ path: [], message: 'Content-Type must be application/javascript', code: 'content_type' }], 'The body must be the bundle');
  }
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw payloadTooLarge(maxBytes);
  // The shared capped reader counts the bytes as they stream (a missing or lying content-length
  // cannot get more than the cap into memory); the hash is taken once the body is whole.
  const bytes = await readWithin(c.req.raw.body, maxBytes);
  if (bytes.byteLength === 0) throw invalidRequest([{ path: [], message: 'The bundle is empty', code: 'empty' }], 'The body must be the bundle');
  return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), sha256: createHash('sha256').update(bytes).digest('hex') };
}
