/**
 * @module apps/storage/cursor
 * A list's cursor: the last key of the page, base64url-encoded (keys may hold any character). A
 * cursor that does not decode answers the 400 at `cursor`.
 */
import { invalidRequest } from '@platform/sdk';

export const encodeListCursor = (lastKey: string): string => Buffer.from(lastKey, 'utf8').toString('base64url');

export function decodeListCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const key = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (key === '' || encodeListCursor(key) !== cursor) throw invalidRequest([{ path: ['cursor'], message: 'Not a cursor this API returned' }]);
  return key;
}
