/**
 * @module guest/capabilities/crypto
 * Web Crypto: getRandomValues and randomUUID from the host's CSPRNG, and the SubtleCrypto subset
 * apps need to verify and sign webhooks (HMAC) and hash (SHA-1/256/384/512), computed by the host.
 */
import { GUEST_LIMITS } from '../../shared/bridge.ts';
import { callHost } from '../web/bridge.ts';
import { toBytes } from '../web/encoding.ts';
import { DOMException } from '../web/events.ts';
import type { GuestCapability } from './types.ts';

const HASHES = ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'];
const HASH_BLOCK: Record<string, number> = { 'SHA-1': 512, 'SHA-256': 512, 'SHA-384': 1024, 'SHA-512': 1024 };

type Algorithm = string | { name: string; hash?: string | { name: string }; length?: number };

function algorithmName(alg: Algorithm): string {
  const name = typeof alg === 'string' ? alg : alg?.name;
  if (typeof name !== 'string') throw new TypeError('An algorithm name is required');
  return name.toUpperCase();
}

function hashName(alg: Algorithm | undefined): string {
  const name = alg === undefined ? '' : algorithmName(alg);
  if (!HASHES.includes(name)) throw new DOMException(`Unsupported hash: ${name}`, 'NotSupportedError');
  return name;
}

const keyData = new WeakMap<CryptoKey, Uint8Array>();
// Assigned by the static block of CryptoKey (declared first: temporal dead zone).
let makeKey: (hash: string, bytes: Uint8Array, extractable: boolean, usages: string[]) => CryptoKey;

export class CryptoKey {
  readonly type = 'secret';
  readonly extractable: boolean;
  readonly algorithm: { name: 'HMAC'; hash: { name: string }; length: number };
  readonly usages: string[];
  private constructor(hash: string, length: number, extractable: boolean, usages: string[]) {
    this.algorithm = { name: 'HMAC', hash: { name: hash }, length };
    this.extractable = extractable;
    this.usages = usages;
  }
  static {
    makeKey = (hash, bytes, extractable, usages) => {
      const key = new CryptoKey(hash, bytes.length * 8, extractable, usages);
      keyData.set(key, bytes);
      return key;
    };
  }
}

function hmacKey(key: unknown, usage: string): { hash: string; bytes: Uint8Array } {
  const bytes = key instanceof CryptoKey ? keyData.get(key) : undefined;
  if (bytes === undefined || !(key instanceof CryptoKey)) throw new TypeError('Expected a CryptoKey');
  if (!key.usages.includes(usage)) throw new DOMException(`The key may not be used to ${usage}`, 'InvalidAccessError');
  return { hash: key.algorithm.hash.name, bytes };
}

const subtle = {
  async digest(alg: Algorithm, data: unknown): Promise<ArrayBuffer> {
    return callHost('crypto', 'digest', hashName(alg), toBytes(data, 'digest').slice()) as ArrayBuffer;
  },
  async importKey(format: string, data: unknown, alg: Algorithm, extractable: boolean, usages: string[]): Promise<CryptoKey> {
    if (algorithmName(alg) !== 'HMAC') throw new DOMException(`Unsupported algorithm: ${algorithmName(alg)}`, 'NotSupportedError');
    if (format !== 'raw') throw new DOMException(`Unsupported key format: ${format}`, 'NotSupportedError');
    const hash = hashName(typeof alg === 'object' ? alg.hash : undefined);
    const bytes = toBytes(data, 'importKey').slice();
    if (bytes.length === 0) throw new DOMException('An HMAC key cannot be empty', 'DataError');
    for (const u of usages) if (u !== 'sign' && u !== 'verify') throw new SyntaxError(`Invalid key usage for HMAC: ${u}`);
    return makeKey(hash, bytes, extractable === true, [...usages]);
  },
  async generateKey(alg: Algorithm, extractable: boolean, usages: string[]): Promise<CryptoKey> {
    if (algorithmName(alg) !== 'HMAC') throw new DOMException(`Unsupported algorithm: ${algorithmName(alg)}`, 'NotSupportedError');
    const hash = hashName(typeof alg === 'object' ? alg.hash : undefined);
    const bits = typeof alg === 'object' && typeof alg.length === 'number' ? alg.length : HASH_BLOCK[hash]!;
    return makeKey(hash, random(Math.ceil(bits / 8)), extractable === true, [...usages]);
  },
  async exportKey(format: string, key: CryptoKey): Promise<ArrayBuffer> {
    const bytes = keyData.get(key);
    if (bytes === undefined) throw new TypeError('Expected a CryptoKey');
    if (format !== 'raw') throw new DOMException(`Unsupported key format: ${format}`, 'NotSupportedError');
    if (!key.extractable) throw new DOMException('The key is not extractable', 'InvalidAccessError');
    return bytes.slice().buffer;
  },
  async sign(alg: Algorithm, key: CryptoKey, data: unknown): Promise<ArrayBuffer> {
    if (algorithmName(alg) !== 'HMAC') throw new DOMException(`Unsupported algorithm: ${algorithmName(alg)}`, 'NotSupportedError');
    const k = hmacKey(key, 'sign');
    return callHost('crypto', 'hmac', k.hash, k.bytes, toBytes(data, 'sign').slice()) as ArrayBuffer;
  },
  async verify(alg: Algorithm, key: CryptoKey, signature: unknown, data: unknown): Promise<boolean> {
    if (algorithmName(alg) !== 'HMAC') throw new DOMException(`Unsupported algorithm: ${algorithmName(alg)}`, 'NotSupportedError');
    const k = hmacKey(key, 'verify');
    return callHost('crypto', 'hmacVerify', k.hash, k.bytes, toBytes(data, 'verify').slice(), toBytes(signature, 'verify').slice()) === true;
  },
};

function random(n: number): Uint8Array {
  return new Uint8Array(callHost('crypto', 'random', n) as ArrayBuffer);
}

function getRandomValues<T extends ArrayBufferView>(view: T): T {
  const ok = view instanceof Int8Array || view instanceof Uint8Array || view instanceof Uint8ClampedArray || view instanceof Int16Array ||
    view instanceof Uint16Array || view instanceof Int32Array || view instanceof Uint32Array || view instanceof BigInt64Array || view instanceof BigUint64Array;
  if (!ok) throw new DOMException('getRandomValues needs an integer typed array', 'TypeMismatchError');
  if (view.byteLength > GUEST_LIMITS.randomBytes) throw new DOMException(`getRandomValues fills at most ${GUEST_LIMITS.randomBytes} bytes`, 'QuotaExceededError');
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(random(view.byteLength));
  return view;
}

function randomUUID(): string {
  const b = random(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const cryptoCapability: GuestCapability = {
  name: 'crypto',
  install(define) {
    define('crypto', { getRandomValues, randomUUID, subtle });
    define('CryptoKey', CryptoKey);
  },
};
