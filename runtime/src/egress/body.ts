/**
 * @module egress/body
 * Reads an outbound response body with a byte cap, decompressing gzip, deflate and brotli as it
 * goes; the cap applies to the decompressed bytes, so a small bomb cannot inflate past it.
 */
import { Readable } from 'node:stream';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { readCapped } from '@platform/sdk';

export class BodyTooLargeError extends Error {}

function decoder(encoding: string): Transform | null {
  switch (encoding.trim().toLowerCase()) {
    case 'gzip': case 'x-gzip': return createGunzip();
    case 'deflate': return createInflate();
    case 'br': return createBrotliDecompress();
    default: return null;
  }
}

/** The body's bytes, and whether they were decoded (then content-encoding no longer applies). */
export async function readDecoded(body: Readable, contentEncoding: string | null, maxBytes: number): Promise<{ bytes: Uint8Array; decoded: boolean }> {
  const codec = contentEncoding === null ? null : decoder(contentEncoding);
  const source: Readable = codec === null ? body : body.pipe(codec);
  body.on('error', (err) => codec?.destroy(err));
  let bytes: Uint8Array | null;
  try {
    // The packages' one capped reader counts the decompressed bytes.
    bytes = await readCapped(source as AsyncIterable<Uint8Array>, maxBytes);
  } finally {
    // Stop reading early (cap reached or error) without leaving an unheard error behind.
    source.on('error', () => {});
    source.destroy();
    body.destroy();
  }
  if (bytes === null) throw new BodyTooLargeError(`The response body is larger than ${maxBytes} bytes`);
  return { bytes, decoded: codec !== null };
}
