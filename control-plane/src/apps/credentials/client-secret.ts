/**
 * @module apps/credentials/client-secret
 * Client credentials of an app (HTTP Basic `client_id:client_secret`). Only the sha256 (hex) of the
 * secret is stored, in `apps.client_secret_hash`, the same way member API keys are stored: the
 * secret is random and long, so a fast hash is enough and lookups stay cheap.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const CLIENT_SECRET_PREFIX = 'platsec_';

/**
 * The stored form of a client secret: sha256 of its UTF-8 bytes, lowercase hex.
 *
 * @example
 * await db.query('update apps set client_secret_hash = $2 where id = $1', [appId, hashClientSecret(secret)]);
 */
export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * A fresh client secret (`platsec_` + 32 random bytes, base64url) and its stored hash.
 *
 * @example
 * const { secret, hash } = generateClientSecret(); // show `secret` once, store `hash`
 */
export function generateClientSecret(): { secret: string; hash: string } {
  const secret = CLIENT_SECRET_PREFIX + randomBytes(32).toString('base64url');
  return { secret, hash: hashClientSecret(secret) };
}

/** Constant-time check of a presented secret against a stored hash. */
export function clientSecretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashClientSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
