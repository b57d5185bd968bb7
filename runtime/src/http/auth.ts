/**
 * @module http/auth
 * The internal API's credential: `authorization: Bearer <RUNTIME_SECRET>`, compared in constant
 * time (both sides hashed first, so lengths leak nothing either).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { PlatformError } from '@platform/sandbox-lib';
import type { MiddlewareHandler } from 'hono';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

export function requireSecret(secret: string): MiddlewareHandler {
  const expected = digest(`Bearer ${secret}`);
  return async (c, next) => {
    const given = c.req.header('authorization');
    if (given === undefined) throw new PlatformError('PlatformAppTokenMissingError', 'The internal API needs the shared secret as a bearer token');
    if (!timingSafeEqual(digest(given), expected)) throw new PlatformError('PlatformAppTokenInvalidError', 'The shared secret is not valid');
    await next();
  };
}
