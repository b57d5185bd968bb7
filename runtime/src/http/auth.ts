/**
 * @module http/auth
 * The internal API's credential: `authorization: Bearer <RUNTIME_SECRET>`, compared in constant
 * time (both sides hashed first, so lengths leak nothing either). The node keeps only the hash.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { PlatformError } from '@platform/sandbox-lib';
import type { MiddlewareHandler } from 'hono';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Throws the tagged error unless `header` carries the secret. */
export function createSecretCheck(secret: string): (header: string | undefined) => void {
  const expected = digest(`Bearer ${secret}`);
  return (header) => {
    if (header === undefined) throw new PlatformError('PlatformAppTokenMissingError', 'The internal API needs the shared secret as a bearer token');
    if (!timingSafeEqual(digest(header), expected)) throw new PlatformError('PlatformAppTokenInvalidError', 'The shared secret is not valid');
  };
}

export function requireSecret(check: (header: string | undefined) => void): MiddlewareHandler {
  return async (c, next) => {
    check(c.req.header('authorization'));
    await next();
  };
}
