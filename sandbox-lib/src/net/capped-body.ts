/**
 * @module net/capped-body
 * The one size-capped body reader of the packages, for every body read whole from a stranger: a
 * request to a server (the control plane, a runtime node, a self-hosted app's `serve`), an app's
 * answer to a delivery, an issuer's discovery document. Bytes are counted as they arrive, so a
 * missing or lying content-length cannot get more than the cap into memory; a declared length
 * over the cap is refused before a byte is read (`declaredOver`). Past the cap the answer is
 * `null` and each caller says what that means (a `413`, a `too-large` delivery).
 *
 * Two sources, one count: a Web stream or async iterable (`readCapped`: the reader is cancelled, a
 * Node stream iterated is destroyed), and a Node request read by its events (`readCappedEvents`:
 * cheaper than a Web stream per body, and the request is left paused past the cap so that the
 * server can still write its `413`, then drain or drop the rest). No Node types here: the main
 * entry compiles for isolates too.
 */
import { PlatformError } from '../errors/platform-error.ts';

/** A Node readable (an `IncomingMessage`) as far as `readCappedEvents` uses it. */
export interface EventBody {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
  /** Node's `IncomingMessage.complete`: the whole body arrived. */
  readonly complete?: boolean;
}

/**
 * Whether a declared `content-length` is over the cap (an absent or malformed one is not: the
 * count while reading still holds).
 * @example if (declaredOver(request.headers.get('content-length'), 1 << 20)) return tooLarge();
 */
export function declaredOver(contentLength: string | null | undefined, maxBytes: number): boolean {
  if (contentLength === null || contentLength === undefined || !/^\d{1,15}$/.test(contentLength.trim())) return false;
  return Number(contentLength) > maxBytes;
}

/**
 * Reads the whole stream under the cap; `null` past it (the stream is given up).
 * @example
 * const bytes = await readCapped(response.body, 1024 * 1024);
 * if (bytes === null) return { ok: false, failure: 'too-large' };
 */
export async function readCapped(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  if (body === null) return new Uint8Array(0);
  const chunks = createChunks(maxBytes);
  if ('getReader' in body && typeof body.getReader === 'function') {
    // The guest's streams have a reader but no async iterator.
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks.join();
      if (!chunks.add(value)) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
    }
  }
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    if (!chunks.add(chunk)) return null;
  }
  return chunks.join();
}

/**
 * Reads a Node request by its events under the cap; `null` past it, with the request paused (the
 * caller answers, then resumes to drain or destroys). A request that ends before its body is
 * complete (the client hung up) rejects with the client's `PlatformApiInvalidRequestError`, not an
 * error of ours; a stream error after a complete body rejects with that error.
 * @example
 * const bytes = await readCappedEvents(req, 1 << 20);
 * if (bytes === null) { req.resume(); throw payloadTooLarge(1 << 20); }
 */
export function readCappedEvents(body: EventBody, maxBytes: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks = createChunks(maxBytes);
    const settle = (finish: () => void): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      finish();
    };
    const onData = (chunk: Uint8Array): void => {
      if (chunks.add(chunk)) return;
      body.pause();
      settle(() => resolve(null));
    };
    const onEnd = (): void => settle(() => resolve(chunks.join()));
    const onError = (error: Error): void => settle(() => reject(body.complete === false ? clientAborted() : error));
    const onClose = (): void => {
      if (body.complete === false) settle(() => reject(clientAborted()));
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

function clientAborted(): PlatformError {
  return new PlatformError('PlatformApiInvalidRequestError', 'The client closed the connection before the request body was complete', { fields: { issues: [] } });
}

/** The chunks read so far and their count against the cap. */
function createChunks(maxBytes: number): { add(chunk: Uint8Array): boolean; join(): Uint8Array } {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    add(chunk) {
      size += chunk.byteLength;
      if (size > maxBytes) return false;
      chunks.push(chunk);
      return true;
    },
    join() {
      // One chunk (most small bodies) is the body itself: no copy.
      if (chunks.length === 1) return chunks[0]!;
      const bytes = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return bytes;
    },
  };
}
