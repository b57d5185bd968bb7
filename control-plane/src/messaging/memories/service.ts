/**
 * @module messaging/memories/service
 * `POST /v0/memories`: saves a workspace memory credited to the app (scope `memories:write`, 60 a
 * minute per install), and the members' list (`GET /client/v1/memories`). A workspace install's
 * memories are seen by every member of the workspace; a development install's only by its
 * developer, the way its reach is the developer's (docs/decisions/notifications-memories.md).
 */
import { LIMITS, type MemoryRequest } from '@platform/sandbox-lib';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { PageQuery } from '../../core/http/common.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { requireScope } from '../../apps/guards/index.ts';
import type { Kv } from '../../core/kv/kv.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { decodeSeqCursor, toSeqPage } from '../notifications/page.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';
import { newMemoryId } from './ids.ts';
import type { Memory } from './schemas.ts';
import { appOwner, insertMemory, listMemories, type MemoryRow } from './store.ts';

export interface MemoriesService {
  save(caller: InstallCaller, body: MemoryRequest): Promise<{ id: string; createdAt: string }>;
  list(actor: Actor, page: PageQuery): Promise<{ items: Memory[]; nextCursor: string | null }>;
}

export interface MemoriesServiceDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
}

/** The rate-limit key: per install, so a workspace install and a development install of one app count apart. */
export const memoriesRateKey = (installId: string): string => `memories:${installId}`;

const view = (row: MemoryRow): Memory => ({
  id: row.id,
  title: row.title,
  text: row.text,
  app: row.app_id === null || row.app_name === null ? null : { id: row.app_id, name: row.app_name },
  createdAt: row.created_at.toISOString(),
});

/**
 * @example
 * const memories = createMemoriesService({ db, kv, clock });
 * await memories.save(auth, { title: 'Release day', text: 'We ship on Thursdays.' }); // { id: 'memo_…', createdAt }
 */
export function createMemoriesService(deps: MemoriesServiceDeps): MemoriesService {
  return {
    async save(caller, body) {
      requireScope(caller, 'memories:write');
      await rateLimit(deps.kv, { key: memoriesRateKey(caller.installId), limit: LIMITS.rateLimits.memoriesPerMinutePerInstall, windowMs: 60_000 });
      const audienceMemberId = caller.installKind === 'dev' ? await appOwner(deps.db, caller.appId) : null;
      const at = new Date(deps.clock.now());
      const id = newMemoryId();
      await insertMemory(deps.db, {
        id, workspaceId: caller.workspaceId, appId: caller.appId, installId: caller.installId, audienceMemberId,
        // An empty title is no title.
        title: body.title === undefined || body.title === '' ? null : body.title, text: body.text, at,
      });
      return { id, createdAt: at.toISOString() };
    },

    async list(actor, page) {
      const rows = await listMemories(deps.db, actor.workspaceId, actor.memberId, decodeSeqCursor(page.cursor), page.limit);
      return toSeqPage(rows, page.limit, view);
    },
  };
}
