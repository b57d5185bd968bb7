/**
 * @module core/http/capped-body
 * The one capped body reader of the control plane, for every body it reads whole from a stranger:
 * a request's (core/http/read-json.ts, a bundle upload), an app's answer to a delivery
 * (deliveries/outbound/post-json.ts), an issuer's discovery document. Bytes are counted as they
 * stream, so a missing or lying content-length cannot get more than the cap into memory. Past the
 * cap the answer is null and the stream is given up (leaving the loop cancels a web stream and
 * destroys a Node one); each caller says what that means (a `413`, a `too-large` delivery).
 */

/**
 * @example
 * const bytes = await readCapped(response.body, 1024 * 1024);
 * if (bytes === null) return { ok: false, failure: 'too-large', … };
 */
export async function readCapped(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  if (body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  const joined = Buffer.concat(chunks, size);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}
