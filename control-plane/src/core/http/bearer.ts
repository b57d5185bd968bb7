/**
 * @module core/http/bearer
 * Reads `authorization: Bearer <credential>`. No header is "missing"; a header of another shape is
 * "invalid", so callers learn which of the two 401s they hit.
 */
import type { Context } from 'hono';
import { PlatformError } from '@platform/sdk';

export function tokenMissing(): PlatformError {
  return new PlatformError('PlatformAppTokenMissingError', 'No credential: send authorization: Bearer <key>');
}

export function tokenInvalid(): PlatformError {
  return new PlatformError('PlatformAppTokenInvalidError', 'The credential is invalid or revoked');
}

/** The bearer value; throws the 401s for a missing or malformed header. */
export function bearerToken(c: Context): string {
  const header = c.req.header('authorization');
  if (header === undefined || header.trim() === '') throw tokenMissing();
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  if (!match) throw tokenInvalid();
  return match[1]!;
}
