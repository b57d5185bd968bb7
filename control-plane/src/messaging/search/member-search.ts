/**
 * @module messaging/search/member-search
 * The member's side of search objects (client API `GET /search`): words matched against titles,
 * subtitles and bodies, best match first, only objects the member may see (workspace-wide, or in a
 * circle they see). Pages are counted by position: results are ranked, not a feed, so the cursor
 * carries the offset of the next page.
 */
import { invalidRequest } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import type { Actor } from '../../core/auth/actor.ts';
import type { MemberSearchQuery, SearchResult } from './schemas.ts';
import { objectView } from './service.ts';
import { searchVisibleObjects, type VisibleSearchRow } from './store.ts';

export interface MemberSearch {
  search(actor: Actor, query: MemberSearchQuery): Promise<{ items: SearchResult[]; nextCursor: string | null }>;
}

const encodeOffset = (offset: number): string => Buffer.from(JSON.stringify({ offset })).toString('base64url');

function decodeOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (Number.isSafeInteger(offset) && (offset as number) >= 0) return offset as number;
  } catch {
    // fall through to the 400 below
  }
  throw invalidRequest([{ path: ['cursor'], message: 'Not a cursor this API issued', code: 'invalid_cursor' }]);
}

function resultView(row: VisibleSearchRow): SearchResult {
  return { app: { id: row.app_id, name: row.app_name }, ...objectView(row) };
}

/**
 * @example
 * const search = createMemberSearch({ db });
 * const page = await search.search(actor, { q: 'roadmap', limit: 20 });
 */
export function createMemberSearch(deps: { db: Db }): MemberSearch {
  return {
    async search(actor, query) {
      const offset = decodeOffset(query.cursor);
      const text = query.q === undefined || query.q === '' ? null : query.q;
      const rows = await searchVisibleObjects(deps.db, {
        workspaceId: actor.workspaceId, memberId: actor.memberId, text, appId: query.appId ?? null, kind: query.kind ?? null,
        offset, limit: query.limit + 1,
      });
      const more = rows.length > query.limit;
      return { items: rows.slice(0, query.limit).map(resultView), nextCursor: more ? encodeOffset(offset + query.limit) : null };
    },
  };
}
