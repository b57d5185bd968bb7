/**
 * @module signing/secrets
 * Signing secrets in the Standard Webhooks form: `whsec_` + base64 of the key bytes.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';

export const SECRET_PREFIX = 'whsec_';
/** Key bytes of a generated secret (the Standard Webhooks range is 24 to 64). */
export const SECRET_BYTES = 32;
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
