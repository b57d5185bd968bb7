/**
 * @module messaging/notifications/page
 * Newest-first pages keyed by (created_at, seq), for lists whose rows may share a timestamp (the
 * inbox here, workspace memories too). The cursor is the client API's opaque form
 * (core/http/common.ts) with `seq` in place of the id.
 */
import { invalidRequest } from '@platform/sdk';
import { decodeCursor, encodeCursor } from '../../core/http/common.ts';

export interface SeqKey {
  at: Date;
  seq: number;
}

/** The page key of a cursor (`null` for the first page); a cursor this API did not issue is a 400. */
export function decodeSeqCursor(value: string | undefined): SeqKey | null {
  const cursor = decodeCursor(value);
  if (cursor === null) return null;
  if (!/^\d{1,15}$/.test(cursor.id)) throw invalidRequest([{ path: ['cursor'], message: 'Not a cursor this API issued', code: 'invalid_cursor' }]);
  return { at: cursor.at, seq: Number(cursor.id) };
}

/** Cuts a `limit + 1` fetch into a page and the cursor of the next one. */
export function toSeqPage<R extends { created_at: Date; seq: number }, T>(rows: R[], limit: number, map: (row: R) => T): { items: T[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return { items: shown.map(map), nextCursor: more && last ? encodeCursor({ at: last.created_at, id: String(last.seq) }) : null };
}
