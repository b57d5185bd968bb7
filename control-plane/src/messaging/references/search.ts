/**
 * @module messaging/references/search
 * Members search an app's reference kind (`GET /client/v1/references/search`): the app must be
 * installed and active in the member's workspace (a development install only for its developer,
 * the rule of messaging/notifications/recipients.ts), and the kind searchable in the version the install
 * runs (messaging/search/kinds.ts). The query goes to the app as sent, as `reference.search` through the
 * interactive engine with the member as actor (5 s, never retried, recorded on the Deliveries page).
 *
 * The answer must match the result schema, hold at most `limit` items, and every `url` is
 * `https://` (the schema). A failure, timeout or invalid answer is the app's fault, not the
 * member's: it answers 200 with no items and an `error` saying what went wrong, never a 5xx
 * (docs/decisions/references.md).
 */
import { z } from 'zod';
import { LIMITS, PlatformError, ReferenceKindSchema, ReferenceSearchResultSchema } from '@platform/sdk';
import { Id } from '../../core/http/common.ts';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import type { Db } from '../../core/db/db.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import { TARGET_COLUMNS, targetFromRow, type InstallTarget, type TargetColumns } from '../../deliveries/pipeline/install-target.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { mayNotify } from '../notifications/recipients.ts';
import { createSearchKinds, type SearchKinds } from '../search/kinds.ts';
import { graphemeLength } from '../../core/http/text.ts';

const MAX_RESULTS = LIMITS.references.searchResultsPerQuery;
export const SEARCH_DEFAULT_LIMIT = 20;
/** Characters (graphemes) of a query: a search box, not a document. */
export const SEARCH_QUERY_MAX = 200;

export const ReferenceSearchQuery = z.strictObject({
  appId: Id.describe('The app whose reference kind is searched'),
  kind: ReferenceKindSchema.describe('A reference kind the installed version declares `searchable`'),
  // Sent to the app as typed (not trimmed): leading or trailing spaces may mean something to it.
  q: z.string()
    .refine((s) => s.trim().length > 0, 'Needs visible text')
    .refine((s) => graphemeLength(s) <= SEARCH_QUERY_MAX, `Keep this to ${SEARCH_QUERY_MAX} characters or fewer`)
    .refine((s) => Buffer.byteLength(s) <= SEARCH_QUERY_MAX * CLIENT_LIMITS.bytesPerGrapheme, 'Too many bytes for this field')
    .describe(`What to search for: 1 to ${SEARCH_QUERY_MAX} characters with visible text, sent to the app as typed`),
  limit: z.coerce.number().int().min(1).max(MAX_RESULTS).default(SEARCH_DEFAULT_LIMIT)
    .describe(`At most this many results (1 to ${MAX_RESULTS}, default ${SEARCH_DEFAULT_LIMIT})`),
});
export type ReferenceSearchQuery = z.output<typeof ReferenceSearchQuery>;

export const ReferenceSearchAnswer = z.object({
  items: ReferenceSearchResultSchema.shape.items,
  error: z.object({
    reason: z.string().describe('The engine\'s failure reason: `timeout`, `http-status`, `invalid-json`, `response-invalid`, …'),
    message: z.string(),
  }).optional().describe('Present when the app failed, timed out or answered outside the rules; `items` is then empty'),
});
export type ReferenceSearchAnswer = z.output<typeof ReferenceSearchAnswer>;

type InstallRow = TargetColumns & { owner_member_id: string };

/** Active installs of the app in the workspace, a development install first. */
async function activeInstalls(db: Db, appId: string, workspaceId: string): Promise<InstallRow[]> {
  const { rows } = await db.query<InstallRow>(
    `select ${TARGET_COLUMNS}, a.owner_member_id
       from installs i join apps a on a.id = i.app_id
      where i.app_id = $1 and i.workspace_id = $2 and i.status = 'active'
      order by (i.kind = 'dev') desc, i.created_at, i.id`,
    [appId, workspaceId]);
  return rows;
}

/** What is wrong with a search answer beyond its schema, or null. */
export function searchProblem(limit: number, items: readonly unknown[]): string | null {
  return items.length > limit ? `The answer has ${items.length} items; the search asked for at most ${limit}` : null;
}

export interface ReferenceSearch {
  search(actor: Actor, query: ReferenceSearchQuery): Promise<ReferenceSearchAnswer>;
}

/**
 * @example
 * const search = createReferenceSearch({ db, engine });
 * await search.search(actor, { appId, kind: 'issue', q: 'login bug', limit: 20 }); // { items: [...] }
 */
export function createReferenceSearch(deps: { db: Db; engine: InteractiveEngine; kinds?: SearchKinds }): ReferenceSearch {
  const kinds = deps.kinds ?? createSearchKinds({ db: deps.db });

  /** The install the member searches through: the developer's own build first, else the workspace's. */
  async function installFor(actor: Actor, appId: string): Promise<InstallTarget> {
    const rows = await activeInstalls(deps.db, appId, actor.workspaceId);
    const row = rows.find((r) => mayNotify({
      installKind: r.t_install_kind, installWorkspaceId: r.t_workspace_id, memberWorkspaceId: actor.workspaceId,
      memberId: actor.memberId, developerId: r.owner_member_id,
    }));
    if (row === undefined) throw new PlatformError('PlatformApiNotFoundError', 'No app with that id is installed in this workspace', { path: ['appId'] });
    return targetFromRow(row);
  }

  return {
    async search(actor, query) {
      const target = await installFor(actor, query.appId);
      const searchable = (await kinds.of(target.app.id, target.version)).get(query.kind);
      if (searchable !== true) {
        const message = searchable === undefined ? 'The installed version of this app has no reference kind by that name' : 'This reference kind cannot be searched';
        throw new PlatformError('PlatformApiNotFoundError', message, { path: ['kind'] });
      }
      const outcome = await deps.engine.deliver({
        type: 'reference.search', target, actor: { memberId: actor.memberId, name: actor.name },
        data: { kind: query.kind, query: query.q, limit: query.limit },
        check: (result) => searchProblem(query.limit, result.items),
      });
      if (outcome.kind === 'result') {
        return { items: outcome.result.items.map(({ url, title, subtitle, status }) => ({ url, title, subtitle, status })) };
      }
      if (outcome.kind === 'deferred') return { items: [], error: { reason: 'not-deferrable', message: 'The app did not answer the search' } };
      return { items: [], error: { reason: outcome.reason, message: outcome.message } };
    },
  };
}
