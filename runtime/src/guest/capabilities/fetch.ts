/**
 * @module guest/capabilities/fetch
 * `fetch` hands the request to the host, which applies the egress policy (allow-list, SSRF guard,
 * redirects, caps, request count) and delivers the response later as a separate entry.
 */
import type { GuestFetchResult } from '../../shared/bridge.ts';
import { closeOp, openOp, postHost } from '../bridge.ts';
import { DOMException } from '../events.ts';
import { Headers, toHeaderList } from '../headers.ts';
import { Request, peekRequestBody, type RequestInit } from '../request.ts';
import { Response, networkResponse } from '../response.ts';
import type { URL } from '../url.ts';
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
      const r = value as GuestFetchResult;
      resolve(networkResponse(r.status, r.statusText, r.headers, r.body, r.url, r.redirected));
    });
    signal.addEventListener('abort', onAbort, { once: true });
    postHost('fetch', 'start', id, {
      method: request.method,
      url: request.url,
      headers: toHeaderList(request.headers),
      body: peekRequestBody(request),
      redirect: request.redirect,
    });
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
