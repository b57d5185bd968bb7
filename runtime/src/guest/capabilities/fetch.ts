/**
 * @module guest/capabilities/fetch
 * `fetch` hands the request to the host, which applies the egress policy (allow-list, SSRF guard,
 * redirects, caps, request count) and delivers the response later as a separate entry.
 */
import type { BodyKind, HeaderBlock } from '../../shared/bridge.ts';
import { closeOp, openOp, postHost } from '../web/bridge.ts';
import { DOMException } from '../web/events.ts';
import { Headers, toBlock } from '../web/headers.ts';
import { Request, requestBodyForHost, type RequestInit } from '../web/request.ts';
import { Response, networkResponse } from '../web/response.ts';
import type { URL } from '../web/url.ts';
import type { GuestCapability } from './types.ts';

function fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = new Request(input, init);
    const signal = request.signal;
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      if (closeOp(id)) {
        postHost('fetch', 'abort', id);
        reject(signal.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      }
    };
    const id = openOp((ok, value) => {
      signal.removeEventListener('abort', onAbort);
      if (!ok) return reject(new TypeError(typeof value === 'string' ? value : 'fetch failed'));
      const r = value as { status: number; statusText: string; headers: HeaderBlock; body: string; bodyKind: BodyKind; url: string; redirected: boolean };
      resolve(networkResponse(r.status, r.statusText, r.headers, r.body, r.bodyKind, r.url, r.redirected));
    });
    signal.addEventListener('abort', onAbort, { once: true });
    const body = requestBodyForHost(request);
    postHost('fetch', 'start', id, request.method, request.url, toBlock(request.headers), body?.text ?? null, body?.kind ?? 'text', request.redirect);
  });
}

export const fetchCapability: GuestCapability = {
  name: 'fetch',
  install(define) {
    define('fetch', fetch);
    define('Request', Request);
    define('Response', Response);
    define('Headers', Headers);
  },
};
