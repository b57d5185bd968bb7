/**
 * @module http/body
 * Reads a request body with a byte cap (413 past it), counting bytes as they arrive rather than
 * trusting content-length. Under @hono/node-server it reads the Node request directly: building a
 * Web stream for every body costs more than the rest of a delivery's HTTP handling.
 */
import type { IncomingMessage } from 'node:http';
import { PlatformError } from '@platform/sandbox-lib';
import type { Context } from 'hono';

function tooLarge(maxBytes: number): PlatformError {
  return new PlatformError('PlatformApiPayloadTooLargeError', `The body is larger than ${maxBytes} bytes`, { fields: { limit: maxBytes } });
}

function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        cleanup();
        incoming.resume(); // drain and discard the rest
        reject(tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      const all = Buffer.concat(chunks, total);
      resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
  });
}

async function readStream(request: Request, maxBytes: number): Promise<Uint8Array> {
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
      throw tooLarge(maxBytes);
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

export async function readBody(c: Context, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined ? readIncoming(incoming, maxBytes) : readStream(c.req.raw, maxBytes);
}

/** Parses a JSON body (capped); a body that is not JSON is a 400. */
export async function readJson(c: Context, maxBytes: number): Promise<unknown> {
  const bytes = await readBody(c, maxBytes);
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
  } catch {
    throw new PlatformError('PlatformApiInvalidRequestError', 'The body is not valid JSON', { fields: { issues: [{ path: [], message: 'Invalid JSON' }] } });
  }
}
