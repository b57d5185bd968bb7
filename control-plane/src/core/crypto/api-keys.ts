/**
 * @module core/crypto/api-keys
 * Member API keys: `platkey_` + 32 random bytes (base64url). Only the sha256 of a key is stored;
 * the key itself is shown once, when created. A key's last four characters are kept as a hint so
 * people can tell their keys apart.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'platkey_';
const KEY_SHAPE = /^platkey_[A-Za-z0-9_-]{43}$/;

export interface NewApiKey {
  key: string;
  hash: string;
  hint: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), hint: key.slice(-4) };
}

/** Cheap shape check before touching the database. */
export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** Constant-time comparison of two secrets of any length (compares their digests). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
