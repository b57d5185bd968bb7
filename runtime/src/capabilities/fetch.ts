/**
 * @module capabilities/fetch
 * Outbound fetch. The worker only checks the shape and forwards the request to the supervisor,
 * which owns the egress policy (allow-list, SSRF guard, install token, caps, counts): the process
 * that runs guest code never holds install tokens and never opens outbound sockets.
 */
import { GUEST_LIMITS, fromHeaderBlock, type GuestFetchInit } from '../shared/bridge.ts';
import { expect, isInt, isString, type HostCapability } from './types.ts';

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_URL_CHARS = 16 * 1024;
const MAX_HEADER_BLOCK_CHARS = GUEST_LIMITS.headers * 16 * 1024;

function headerPairs(block: unknown): Array<[string, string]> {
  const text = expect(block, isString, 'fetch headers');
  if (text.length > MAX_HEADER_BLOCK_CHARS) throw new TypeError('Invalid fetch headers');
  const pairs = fromHeaderBlock(text);
  if (pairs.length > GUEST_LIMITS.headers * 4 || pairs.some(([n, v]) => n.length >= 256 || v.length >= 16_384)) throw new TypeError('Invalid fetch headers');
  return pairs;
}

function body(text: unknown, kind: unknown): Buffer | null {
  if (text === null) return null;
  const bytes = Buffer.from(expect(text, isString, 'fetch body'), kind === 'latin1' ? 'latin1' : 'utf8');
  if (bytes.byteLength > MAX_BODY_BYTES) throw new RangeError(`Request bodies are limited to ${MAX_BODY_BYTES} bytes`);
  return bytes;
}

function fetchInit([method, url, headers, text, kind, redirect]: unknown[]): GuestFetchInit {
  const target = expect(url, isString, 'fetch URL');
  if (target.length > MAX_URL_CHARS) throw new TypeError('The URL is too long');
  return {
    method: expect(method, isString, 'fetch method').slice(0, 32),
    url: target,
    headers: headerPairs(headers),
    body: body(text, kind),
    redirect: redirect === 'manual' || redirect === 'error' ? redirect : 'follow',
  };
}

export const fetchCapability: HostCapability = {
  name: 'fetch',
  post: {
    start(scope, [id, ...init]) {
      scope.startFetch(expect(id, isInt, 'fetch id'), fetchInit(init));
    },
    abort(scope, [id]) {
      scope.abortFetch(expect(id, isInt, 'fetch id'));
    },
  },
};
