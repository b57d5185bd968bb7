/**
 * @module signing/secrets
 * Signing secrets in the Standard Webhooks form: `whsec_` + base64 of the key bytes.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';

export const SECRET_PREFIX = 'whsec_';
/** Key bytes of a generated secret (the Standard Webhooks range is 24 to 64). */
export const SECRET_BYTES = 32;
/**
 * The fewest key bytes a secret may have to sign or verify with: 24 (192 bits), the Standard Webhooks
 * guidance. A shorter key can be guessed faster than a signature forged, so it is refused outright
 * rather than used (docs/decisions/hardening.md).
 */
export const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 256;

/**
 * A fresh random signing secret.
 * @example generateSigningSecret() // 'whsec_3q2+7w…='
 */
export function generateSigningSecret(): string {
  const key = new Uint8Array(SECRET_BYTES);
  globalThis.crypto.getRandomValues(key);
  return SECRET_PREFIX + encodeBase64(key);
}

/**
 * The key bytes of a secret (`whsec_` prefix optional, as the reference libraries accept), or
 * `null` when it is not non-empty base64.
 * @example parseSigningSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')?.length // 24
 */
export function parseSigningSecret(secret: string): Uint8Array | null {
  if (typeof secret !== 'string') return null;
  const body = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (body.length === 0 || body.length > (MAX_SECRET_BYTES / 3) * 4 + 4) return null;
  const key = decodeBase64(body);
  return key && key.length > 0 ? key : null;
}

/** A secret's key, or why it cannot sign or verify. */
export type SecretRead =
  | { ok: true; key: Uint8Array }
  | { ok: false; reason: 'invalid-secret' | 'secret-too-short'; message: string };

/**
 * The key bytes of a secret fit to sign and verify with: `whsec_` + base64 of at least
 * `MIN_SECRET_BYTES` bytes.
 * @example readSigningSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') // { ok: true, key: <24 bytes> }
 * @example readSigningSecret('whsec_YQ==') // { ok: false, reason: 'secret-too-short', message: '…' }
 */
export function readSigningSecret(secret: string): SecretRead {
  const key = parseSigningSecret(secret);
  if (key === null) return { ok: false, reason: 'invalid-secret', message: 'The signing secret must be whsec_ followed by base64' };
  if (key.length < MIN_SECRET_BYTES) {
    return { ok: false, reason: 'secret-too-short', message: `The signing secret is ${key.length} bytes; it must be at least ${MIN_SECRET_BYTES} (Standard Webhooks). Use the secret the platform issued (whsec_…)` };
  }
  return { ok: true, key };
}
