/**
 * @module http/body
 * Reads a request body with a byte cap (413 past it), without trusting content-length alone.
 */
import { PlatformError } from '@platform/sandbox-lib';

export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new PlatformError('PlatformApiPayloadTooLargeError', `The body is larger than ${maxBytes} bytes`, { fields: { limit: maxBytes } });
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Parses a JSON body (capped); a body that is not JSON is a 400. */
export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const bytes = await readBody(request, maxBytes);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    throw new PlatformError('PlatformApiInvalidRequestError', 'The body is not valid JSON', { fields: { issues: [{ path: [], message: 'Invalid JSON' }] } });
  }
}
