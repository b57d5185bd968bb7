/**
 * @module sandbox/response-check
 * Re-checks, on the host, a response that came out of an isolate. The guest runtime built it from
 * private state, but the guest can tamper with its own runtime, so nothing is assumed.
 */
import { GUEST_LIMITS, fromHeaderBlock, toHeaderBlock } from '../shared/bridge.ts';
import type { ResponseHead } from '../protocol/messages.ts';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]/;

export interface CheckedResponse {
  head: ResponseHead;
  body: string | null;
  encoding: 'utf8' | 'latin1';
}

/** The response, or the reason it is not one. Arguments are what the guest passed to `core.respond`. */
export function checkResponse(args: unknown[], maxBodyBytes: number): CheckedResponse | string {
  const [status, statusText, headers, body, bodyKind] = args;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) return 'The response status must be an integer from 200 to 599';
  const text = typeof statusText === 'string' && statusText.length <= 512 && !BAD_VALUE.test(statusText) ? statusText : '';
  if (typeof headers !== 'string' || headers.length > GUEST_LIMITS.headers * 4 * 16_640) return 'The response headers are invalid';
  const pairs = fromHeaderBlock(headers);
  if (pairs.length > GUEST_LIMITS.headers * 4) return 'The response headers are invalid';
  for (const pair of pairs) {
    const [name, value] = pair;
    if (!TOKEN.test(name) || BAD_VALUE.test(value) || name.length > 256 || value.length > 16_384) return 'The response headers are invalid';
    pair[0] = name.toLowerCase();
  }
  if (body !== null && typeof body !== 'string') return 'The response body is invalid';
  const encoding = bodyKind === 'latin1' ? 'latin1' : 'utf8';
  if (body !== null && (encoding === 'latin1' ? body.length : Buffer.byteLength(body, 'utf8')) > maxBodyBytes) return `The response body is larger than ${maxBodyBytes} bytes`;
  return { head: { status, statusText: text, headers: toHeaderBlock(pairs) }, body, encoding };
}
