/**
 * @module http/body
 * Reads a request body with a byte cap (413 past it), counting bytes as they arrive rather than
 * trusting content-length, straight from the Node request (building a Web stream for every body
 * costs more than the rest of a delivery's HTTP handling). Hono routes reach the Node request
 * through @hono/node-server's `incoming`.
 */
import type { IncomingMessage } from 'node:http';
import { PlatformError } from '@platform/sdk';
import type { Context } from 'hono';

function tooLarge(maxBytes: number): PlatformError {
  return new PlatformError('PlatformApiPayloadTooLargeError', `The body is larger than ${maxBytes} bytes`, { fields: { limit: maxBytes } });
}

function clientAborted(): PlatformError {
  return new PlatformError('PlatformApiInvalidRequestError', 'The client closed the connection before the request body was complete', { fields: { issues: [] } });
}

/** The body, or a 413 (the rest is drained and dropped). */
export function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(incoming.headers['content-length'] ?? '0');
  if (declared > maxBytes) {
    incoming.resume();
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        cleanup();
        incoming.resume();
        reject(tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    // A body that stops before its end (the client hung up) is the client's abort, not our fault.
    const onError = (err: Error): void => {
      cleanup();
      reject(incoming.complete ? err : clientAborted());
    };
    const onClose = (): void => {
      cleanup();
      if (!incoming.complete) reject(clientAborted());
    };
    const cleanup = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

export function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw new PlatformError('PlatformApiInvalidRequestError', 'The body is not valid JSON', { fields: { issues: [{ path: [], message: 'Invalid JSON' }] } });
  }
}

function incomingOf(c: Context): IncomingMessage {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined) throw new PlatformError('PlatformApiInternalServerError', 'The request is not a Node request');
  return incoming;
}

export function readBody(c: Context, maxBytes: number): Promise<Buffer> {
  return readIncoming(incomingOf(c), maxBytes);
}

/** Parses a JSON body (capped); a body that is not JSON is a 400. */
export async function readJson(c: Context, maxBytes: number): Promise<unknown> {
  return parseJson(await readBody(c, maxBytes));
}
