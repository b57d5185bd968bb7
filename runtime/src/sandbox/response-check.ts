/**
 * @module sandbox/response-check
 * Re-checks, on the host, a response that came out of an isolate. The guest runtime built it from
 * private state, but the guest can tamper with its own runtime, so nothing is assumed.
 */
import { GUEST_LIMITS, type GuestResponseInit } from '../shared/bridge.ts';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]/;

/** The response, or the reason it is not one. */
export function checkResponse(value: unknown, maxBodyBytes: number): GuestResponseInit | string {
  if (typeof value !== 'object' || value === null) return 'The response is not an object';
  const v = value as Record<string, unknown>;
  if (typeof v.status !== 'number' || !Number.isInteger(v.status) || v.status < 200 || v.status > 599) return 'The response status must be an integer from 200 to 599';
  const statusText = typeof v.statusText === 'string' && v.statusText.length <= 512 && !BAD_VALUE.test(v.statusText) ? v.statusText : '';
  if (!Array.isArray(v.headers) || v.headers.length > GUEST_LIMITS.headers * 4) return 'The response headers are invalid';
  const headers: Array<[string, string]> = [];
  for (const h of v.headers as unknown[]) {
    if (!Array.isArray(h) || h.length !== 2) return 'The response headers are invalid';
    const [name, val] = h as unknown[];
    if (typeof name !== 'string' || typeof val !== 'string' || !TOKEN.test(name) || BAD_VALUE.test(val) || name.length > 256 || val.length > 16_384) return 'The response headers are invalid';
    headers.push([name.toLowerCase(), val]);
  }
  const body = v.body === null || v.body === undefined ? null : v.body;
  if (body !== null && !(body instanceof Uint8Array)) return 'The response body is invalid';
  if (body !== null && body.byteLength > maxBodyBytes) return `The response body is larger than ${maxBodyBytes} bytes`;
  return { status: v.status, statusText, headers, body };
}
