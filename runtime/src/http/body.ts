/**
 * @module http/body
 * Reads a request body with a byte cap (413 past it), counting bytes as they arrive rather than
 * trusting content-length, straight from the Node request by its events (`readCappedEvents` of
 * @platform/sdk: building a Web stream for every body costs more than the rest of a delivery's HTTP
 * handling). Hono routes reach the Node request through @hono/node-server's `incoming`.
 */
import type { IncomingMessage } from 'node:http';
import { PlatformError, declaredOver, readCappedEvents } from '@platform/sdk';
import type { Context } from 'hono';

function tooLarge(maxBytes: number): PlatformError {
  return new PlatformError('PlatformApiPayloadTooLargeError', `The body is larger than ${maxBytes} bytes`, { fields: { limit: maxBytes } });
}

/**
 * The body, or a 413 (the rest is drained and dropped); a client that hangs up mid-body gets its
 * 400. The count is sandbox-lib's one capped reader, by events on the Node request.
 */
export async function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (declaredOver(incoming.headers['content-length'], maxBytes)) {
    incoming.resume();
    throw tooLarge(maxBytes);
  }
  const bytes = await readCappedEvents(incoming, maxBytes);
  if (bytes === null) {
    incoming.resume();
    throw tooLarge(maxBytes);
  }
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
