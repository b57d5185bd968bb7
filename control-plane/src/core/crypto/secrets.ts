/**
 * @module core/crypto/secrets
 * Secrets at rest (signing secrets, env var values, secret install config, private keys) are sealed
 * with AES-256-GCM under the master key from config.
 *
 * Format, all parts base64url: `v1.<keyId>.<iv>.<ciphertext>.<tag>`. `v1` names the format so it
 * can change later; `keyId` (first 8 bytes of sha256 of the key) tells which master key sealed a
 * value, so a wrong key fails with a clear message and keys can rotate (open with any key of
 * `previous`). An optional context (for example `env:app_1:API_KEY`) is bound as associated data:
 * a ciphertext copied to another row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

export interface Secrets {
  /** Seals a UTF-8 string. */
  seal(plaintext: string, context?: string): string;
  /** Opens a sealed value; throws `SecretsError` when it was altered, sealed under another key or context. */
  open(sealed: string, context?: string): string;
  /** True when the value was sealed under a key other than the current one (re-seal it). */
  needsReseal(sealed: string): boolean;
}

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest().subarray(0, 8).toString('base64url');
}

/**
 * @example
 * const secrets = createSecrets({ masterKey: config.masterKey });
 * const sealed = secrets.seal('whsec_…', 'signing:app_1');
 * secrets.open(sealed, 'signing:app_1'); // 'whsec_…'
 */
export function createSecrets(options: { masterKey: Buffer; previous?: Buffer[] }): Secrets {
  const keys = new Map<string, Buffer>();
  for (const key of [options.masterKey, ...(options.previous ?? [])]) {
    if (key.length !== 32) throw new SecretsError('A master key is 32 bytes');
    keys.set(keyIdOf(key), key);
  }
  const currentId = keyIdOf(options.masterKey);
  const aad = (context: string | undefined) => Buffer.from(`${VERSION}|${context ?? ''}`, 'utf8');

  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', options.masterKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, currentId, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretsError('Not a sealed secret of a known format');
      const [, keyId, ivText, bodyText, tagText] = parts as [string, string, string, string, string];
      const key = keys.get(keyId);
      if (key === undefined) throw new SecretsError('Sealed under a master key this process does not have');
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretsError('Sealed secret is malformed');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(aad(context));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(bodyText, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretsError('Sealed secret failed authentication (altered, or another context)');
      }
    },
    needsReseal: (sealed) => sealed.split('.')[1] !== currentId,
  };
}
