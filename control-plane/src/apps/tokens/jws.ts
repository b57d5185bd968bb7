/**
 * @module apps/tokens/jws
 * Compact JWS with ES256 or HS256 through `node:crypto`, for minting (verification stays with jose). A JWS
 * carries the ECDSA signature as the raw `r || s` (32 bytes each, RFC 7518 §3.4); `node:crypto`
 * can answer that form itself (`dsaEncoding: 'ieee-p1363'`), but reading that option costs as much
 * as the signature, so the DER form it answers by default is converted here.
 */
import { createHmac, sign, type KeyObject } from 'node:crypto';

const part = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * `SEQUENCE { INTEGER r, INTEGER s }` (DER) as `r || s`, each left-padded to `size` bytes. DER
 * integers are big-endian, minimal, and get a leading zero byte when their top bit is set.
 * @example derToRaw(der, 32).length // 64
 */
export function derToRaw(der: Uint8Array, size: number): Buffer {
  let at = 0;
  const fail = (): never => {
    throw new Error('Not a DER ECDSA signature');
  };
  const length = (): number => {
    const first = der[at++] ?? fail();
    if (first < 0x80) return first;
    const bytes = first & 0x7f;
    if (bytes === 0 || bytes > 2) fail();
    let n = 0;
    for (let i = 0; i < bytes; i++) n = (n << 8) | (der[at++] ?? fail());
    return n;
  };
  if (der[at++] !== 0x30) fail();
  const total = length();
  const end = at + total;
  if (end !== der.length) fail();
  const out = Buffer.alloc(2 * size);
  for (const offset of [0, size]) {
    if (der[at++] !== 0x02) fail();
    let n = length();
    if (at + n > end) fail();
    while (n > 0 && der[at] === 0) {
      at++;
      n--;
    }
    if (n > size) fail();
    out.set(der.subarray(at, at + n), offset + size - n);
    at += n;
  }
  if (at !== end) fail();
  return out;
}

/**
 * `header.payload.signature` signed with a P-256 private key.
 * @example
 * const jwt = signEs256({ alg: 'ES256', kid, typ: 'JWT' }, { sub: 'ins_1', exp }, privateKey);
 */
export function signEs256(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  return signEs256Encoded(part(header), payload, key);
}

/** The encoded header part (`signEs256Encoded`'s first argument), to compute once per key. */
export const encodedHeader = (header: Record<string, unknown>): string => part(header);

/**
 * `signEs256` with the header already encoded: a minter signing with one key for hours encodes
 * its header once.
 * @example
 * const header = encodedHeader({ alg: 'ES256', kid, typ: 'JWT' });
 * const jwt = signEs256Encoded(header, { sub: 'ins_1', exp }, privateKey);
 */
export function signEs256Encoded(header: string, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${header}.${part(payload)}`;
  return `${input}.${derToRaw(sign('sha256', Buffer.from(input, 'utf8'), key), 32).toString('base64url')}`;
}

/**
 * `signEs256Encoded` with HMAC-SHA256 (`alg: HS256`) and a secret key.
 * @example
 * const jwt = signHs256Encoded(encodedHeader({ alg: 'HS256', kid, typ: 'JWT' }), { sub: 'ins_1', exp }, secret);
 */
export function signHs256Encoded(header: string, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${header}.${part(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input, 'utf8').digest('base64url')}`;
}
