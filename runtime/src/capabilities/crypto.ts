/**
 * @module capabilities/crypto
 * Randomness from the host's CSPRNG, and the digests and HMACs of Web Crypto's subset the guest
 * offers. Inputs are capped: the work is host CPU, charged to the request.
 */
import { createHash, createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';
import { GUEST_LIMITS } from '../shared/bridge.ts';
import { expect, isBytes, isInt, type HostCapability } from './types.ts';

const MAX_INPUT_BYTES = 32 * 1024 * 1024;
const HASHES: Record<string, string> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

function hash(name: unknown): string {
  const h = typeof name === 'string' ? HASHES[name] : undefined;
  if (h === undefined) throw new TypeError('Unsupported hash');
  return h;
}

function bytes(value: unknown, what: string): Uint8Array {
  const b = expect(value, isBytes, what);
  if (b.byteLength > MAX_INPUT_BYTES) throw new RangeError(`${what} is larger than ${MAX_INPUT_BYTES} bytes`);
  return b;
}

function toArrayBuffer(buf: Buffer): ArrayBuffer {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}

export const cryptoCapability: HostCapability = {
  name: 'crypto',
  sync: {
    random(_scope, [n]) {
      const count = expect(n, isInt, 'byte count');
      if (count < 0 || count > GUEST_LIMITS.randomBytes) throw new RangeError(`At most ${GUEST_LIMITS.randomBytes} random bytes at once`);
      return toArrayBuffer(randomFillSync(Buffer.alloc(count)));
    },
    digest(_scope, [alg, data]) {
      return toArrayBuffer(createHash(hash(alg)).update(bytes(data, 'data')).digest());
    },
    hmac(_scope, [alg, key, data]) {
      return toArrayBuffer(createHmac(hash(alg), bytes(key, 'key')).update(bytes(data, 'data')).digest());
    },
    hmacVerify(_scope, [alg, key, data, signature]) {
      const expected = createHmac(hash(alg), bytes(key, 'key')).update(bytes(data, 'data')).digest();
      const given = bytes(signature, 'signature');
      return given.byteLength === expected.byteLength && timingSafeEqual(expected, given);
    },
  },
};
