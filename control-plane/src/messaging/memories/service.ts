/**
 * @module messaging/memories/service
 * `POST /v0/memories`: saves a workspace memory credited to the app (scope `memories:write`, 60 a
 * minute per install), and the members' side: the list (`GET /client/v1/memories`), editing and
 * deleting. A workspace install's memories are seen by every member of the workspace; a
 * development install's only by its developer, the way its reach is the developer's
 * (docs/decisions/notifications-memories.md). A memory the whole workspace sees is shared knowledge:
 * owners and admins edit and delete it; one shown to a member alone is theirs to edit and delete.
 * A memory the member does not see answers as absent (docs/decisions/member-features.md).
 */
import { LIMITS, PlatformError, type MemoryRequest } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { PageQuery } from '../../core/http/common.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { requireScope } from '../../apps/guards/index.ts';
import type { Kv } from '../../core/kv/kv.ts';
import { requireAdmin, type Actor } from '../../core/auth/actor.ts';
import { decodeSeqCursor, toSeqPage } from '../notifications/page.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';
import { newMemoryId } from './ids.ts';
import type { Memory } from './schemas.ts';
import { appOwner, deleteMemory, editMemory, findSeenMemory, insertMemory, listMemories, type MemoryRow } from './store.ts';

export interface MemoriesService {
  save(caller: InstallCaller, body: MemoryRequest): Promise<{ id: string; createdAt: string }>;
  list(actor: Actor, page: PageQuery): Promise<{ items: Memory[]; nextCursor: string | null }>;
  edit(actor: Actor, memoryId: string, body: { text?: string | undefined; title?: string | null | undefined }): Promise<{ memory: Memory }>;
  remove(actor: Actor, memoryId: string): Promise<void>;
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
  editedAt: row.edited_at === null ? null : row.edited_at.toISOString(),
  editedBy: row.edited_by,
});

const memoryNotFound = () => new PlatformError('PlatformApiNotFoundError', 'No memory you can see has that id', { path: ['memoryId'] });

/**
 * @example
 * const memories = createMemoriesService({ db, kv, clock });
 * await memories.save(auth, { title: 'Release day', text: 'We ship on Thursdays.' }); // { id: 'memo_…', createdAt }
 */
export function createMemoriesService(deps: MemoriesServiceDeps): MemoriesService {
  /** Unseen memories answer as absent, before any role check; shared ones need an owner or admin. */
  async function mayChange(actor: Actor, memoryId: string, what: string): Promise<void> {
    const seen = await findSeenMemory(deps.db, actor.workspaceId, actor.memberId, memoryId);
    if (seen === undefined) throw memoryNotFound();
    if (!seen.personal) requireAdmin(actor, what);
  }

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

    async edit(actor, memoryId, body) {
      await mayChange(actor, memoryId, 'edit a memory the whole workspace sees');
      const title = body.title === '' ? null : body.title;
      const row = await editMemory(deps.db, {
        id: memoryId, memberId: actor.memberId, at: new Date(deps.clock.now()),
        ...(body.text === undefined ? {} : { text: body.text }), ...(title === undefined ? {} : { title }),
      });
      if (row === undefined) throw memoryNotFound();
      return { memory: view(row) };
    },

    async remove(actor, memoryId) {
      await mayChange(actor, memoryId, 'delete a memory the whole workspace sees');
      await deleteMemory(deps.db, memoryId);
    },
  };
}
