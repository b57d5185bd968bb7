/**
 * @module http/auth
 * The internal API's credential: `authorization: Bearer <RUNTIME_SECRET>`, compared in constant
 * time. Only the length of the expected value can be learnt from timing (a header of another length
 * is refused at once), which says nothing useful about a secret of at least 16 random characters;
 * hashing both sides to hide it cost more than the rest of the check on every delivery.
 */
import { timingSafeEqual } from 'node:crypto';
import { PlatformError } from '@platform/sdk';
import type { MiddlewareHandler } from 'hono';

/** Throws the tagged error unless `header` carries the secret. */
export function createSecretCheck(secret: string): (header: string | undefined) => void {
  const expected = Buffer.from(`Bearer ${secret}`, 'utf8');
  return (header) => {
    if (header === undefined) throw new PlatformError('PlatformAppTokenMissingError', 'The internal API needs the shared secret as a bearer token');
    const given = Buffer.from(header, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new PlatformError('PlatformAppTokenInvalidError', 'The shared secret is not valid');
  };
}

export function requireSecret(check: (header: string | undefined) => void): MiddlewareHandler {
  return async (c, next) => {
    check(c.req.header('authorization'));
    await next();
  };
}
