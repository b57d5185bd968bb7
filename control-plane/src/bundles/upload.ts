/**
 * @module bundles/upload
 * Reads an uploaded bundle: `application/javascript` (or `text/javascript`), at most 10 MB counted
 * while streaming (a missing or lying content-length changes nothing), hashed on the way in.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { LIMITS, invalidRequest } from '@platform/sandbox-lib';
import { payloadTooLarge } from '../http/read-json.ts';

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
  const body = c.req.raw.body;
  const hash = createHash('sha256');
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body !== null) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw payloadTooLarge(maxBytes);
      }
      hash.update(value);
      chunks.push(value);
    }
  }
  if (total === 0) throw invalidRequest([{ path: [], message: 'The bundle is empty', code: 'empty' }], 'The body must be the bundle');
  return { bytes: Buffer.concat(chunks), sha256: hash.digest('hex') };
}
