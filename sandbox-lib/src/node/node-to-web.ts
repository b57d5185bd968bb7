/**
 * @module node/node-to-web
 * A Node request as a Web `Request`. Headers are appended pair by pair from `rawHeaders`, so a
 * repeated header reaches the app joined (and signature checks see the duplicate). The body is
 * read under a cap (net/capped-body.ts), refused from its declared length when possible, and never
 * buffered past it.
 */
import type { IncomingMessage } from 'node:http';
import { declaredOver, readCappedEvents } from '../net/capped-body.ts';

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
    if (declaredOver(req.headers['content-length'], maxBodyBytes)) return { ok: false, reason: 'too-large' };
    // Past the cap the request is left paused, not destroyed, so that the 413 can still be written.
    const bytes = await readCappedEvents(req, maxBodyBytes);
    if (bytes === null) return { ok: false, reason: 'too-large' };
    body = bytes;
  }
  const url = new URL(req.url ?? '/', origin);
  return { ok: true, request: new Request(url, { method, headers, body, signal }) };
}
