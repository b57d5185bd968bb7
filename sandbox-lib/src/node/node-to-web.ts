/**
 * @module node/node-to-web
 * A Node request as a Web `Request`. Headers are appended pair by pair from `rawHeaders`, so a
 * repeated header reaches the app joined (and signature checks see the duplicate). The body is
 * read under a cap, refused from its declared length when possible, and never buffered past it.
 */
import type { IncomingMessage } from 'node:http';

export type NodeRequestRead = { ok: true; request: Request } | { ok: false; reason: 'too-large' };

const WITHOUT_BODY = new Set(['GET', 'HEAD']);

/**
 * Reads `req` into a Web Request for `origin` (`http://host:port`).
 * @example const read = await toWebRequest(req, 'http://127.0.0.1:8787', 1 << 20, controller.signal);
 */
export async function toWebRequest(req: IncomingMessage, origin: string, maxBodyBytes: number, signal: AbortSignal): Promise<NodeRequestRead> {
  const method = (req.method ?? 'GET').toUpperCase();
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // HTTP/2 pseudo-headers (":path", ...) are not headers of the Web request.
    if (name.startsWith(':')) continue;
    headers.append(name, req.rawHeaders[i + 1]!);
  }
  let body: Uint8Array | undefined;
  if (!WITHOUT_BODY.has(method)) {
    const declared = Number(req.headers['content-length'] ?? '');
    if (Number.isFinite(declared) && declared > maxBodyBytes) return { ok: false, reason: 'too-large' };
    const chunks = await readCapped(req, maxBodyBytes);
    if (!chunks) return { ok: false, reason: 'too-large' };
    const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    body = new Uint8Array(Buffer.concat(chunks, size));
  }
  const url = new URL(req.url ?? '/', origin);
  return { ok: true, request: new Request(url, { method, headers, body, signal }) };
}

/** The body's chunks, or `null` past the cap (the stream is paused, not destroyed, so a 413 can still be written). */
function readCapped(req: IncomingMessage, maxBytes: number): Promise<Buffer[] | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer[] | null) => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        req.pause();
        done(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(chunks);
    const onError = (error: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      reject(error);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
