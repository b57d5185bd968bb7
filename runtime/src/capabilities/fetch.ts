/**
 * @module capabilities/fetch
 * Outbound fetch. The worker only checks the shape and forwards the request to the supervisor,
 * which owns the egress policy (allow-list, SSRF guard, install token, caps, counts): the process
 * that runs guest code never holds install tokens and never opens outbound sockets.
 */
import { GUEST_LIMITS, type GuestFetchInit } from '../shared/bridge.ts';
import { expect, isBytes, isInt, isString, type HostCapability } from './types.ts';

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_URL_CHARS = 16 * 1024;

function isHeaderList(v: unknown): v is Array<[string, string]> {
  return Array.isArray(v) && v.length <= GUEST_LIMITS.headers * 4 &&
    v.every((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string' && h[0].length < 256 && h[1].length < 16_384);
}

function fetchInit(value: unknown): GuestFetchInit {
  if (typeof value !== 'object' || value === null) throw new TypeError('Invalid fetch request');
  const v = value as Record<string, unknown>;
  const url = expect(v.url, isString, 'fetch URL');
  if (url.length > MAX_URL_CHARS) throw new TypeError('The URL is too long');
  const body = v.body === null ? null : expect(v.body, isBytes, 'fetch body');
  if (body !== null && body.byteLength > MAX_BODY_BYTES) throw new RangeError(`Request bodies are limited to ${MAX_BODY_BYTES} bytes`);
  const redirect = v.redirect === 'manual' || v.redirect === 'error' ? v.redirect : 'follow';
  return { method: expect(v.method, isString, 'fetch method').slice(0, 32), url, headers: expect(v.headers, isHeaderList, 'fetch headers'), body, redirect };
}

export const fetchCapability: HostCapability = {
  name: 'fetch',
  post: {
    start(scope, [id, init]) {
      scope.startFetch(expect(id, isInt, 'fetch id'), fetchInit(init));
    },
    abort(scope, [id]) {
      scope.abortFetch(expect(id, isInt, 'fetch id'));
    },
  },
};
