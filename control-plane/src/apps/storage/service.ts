/**
 * @module apps/storage/service
 * App storage for `/v0/storage/…` (docs/decisions/storage.md): reads (`get`, `list`) and atomic
 * commits of an install's own space. Every call counts against the install's operations per second;
 * limits are checked before the database is touched.
 */
import { LIMITS } from '@platform/sdk';
import type { InstallCaller, InteractionCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Kv } from '../../core/kv/kv.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';
import { applyCommit, type CommitRequest } from './commit.ts';
import { decodeListCursor, encodeListCursor } from './cursor.ts';
import { checkCommit, checkGetKeys, checkKey, checkListLimit, KEY_CEILING } from './limits.ts';
import type { StorageMetrics } from './metrics.ts';
import { listLive, readLive, type EntryRow, type StorageSpace } from './store.ts';
import { spaceOfInstall } from './space.ts';
import { formatVersionstamp } from './versionstamp.ts';

export type StorageCaller = InstallCaller | InteractionCaller;

// Type aliases (not interfaces), so they fit the response schemas' index signatures.
export type StoredEntryView = { key: string; value: unknown; versionstamp: string };
/** An absent key reads as `value: null, versionstamp: null`. */
export type StorageEntryView = StoredEntryView | { key: string; value: null; versionstamp: null };

export interface ListBody {
  prefix?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
  reverse?: boolean | undefined;
}

export interface StorageService {
  get(caller: StorageCaller, body: { keys: string[] }): Promise<{ entries: StorageEntryView[] }>;
  list(caller: StorageCaller, body: ListBody): Promise<{ entries: StoredEntryView[]; cursor: string | null }>;
  commit(caller: StorageCaller, body: CommitRequest): Promise<{ ok: true; versionstamp: string }>;
}

export interface StorageServiceDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  metrics: StorageMetrics;
}

export const view = (row: EntryRow): StoredEntryView => ({ key: row.key, value: row.value, versionstamp: formatVersionstamp(row.versionstamp) });

/** The rate-limit key: per space, so an app's development install counts apart from its workspace install. */
export const storageRateKey = (s: StorageSpace): string => `storage:${s.appId}:${s.workspaceId}:${s.kind}`;

/**
 * @example
 * const storage = createStorageService({ db, kv, clock, metrics });
 * await storage.commit(auth, { mutations: [{ type: 'set', key: 'votes/alice', value: 1 }] }); // { ok: true, versionstamp }
 */
export function createStorageService(deps: StorageServiceDeps): StorageService {
  async function enter(caller: StorageCaller, op: 'get' | 'list' | 'commit'): Promise<StorageSpace> {
    const space = await spaceOfInstall(deps.db, caller);
    deps.metrics.operation(space.appId, op);
    try {
      await rateLimit(deps.kv, { key: storageRateKey(space), limit: LIMITS.storage.operationsPerSecondPerInstall, windowMs: 1000 });
    } catch (err) {
      deps.metrics.refusal(space.appId, 'operationsPerSecondPerInstall');
      throw err;
    }
    return space;
  }

  return {
    async get(caller, body) {
      checkGetKeys(body.keys);
      const space = await enter(caller, 'get');
      const found = new Map((await readLive(deps.db, space, body.keys, new Date(deps.clock.now()))).map((r) => [r.key, r]));
      return { entries: body.keys.map((key) => { const row = found.get(key); return row === undefined ? { key, value: null, versionstamp: null } : view(row); }) };
    },

    async list(caller, body) {
      const limit = checkListLimit(body.limit);
      for (const [name, key] of [['prefix', body.prefix], ['start', body.start], ['end', body.end]] as const) if (key !== undefined && key !== '') checkKey(key, [name]);
      const after = decodeListCursor(body.cursor);
      const space = await enter(caller, 'list');
      const atLeast = [body.prefix, body.start].filter((k): k is string => k !== undefined && k !== '');
      const below = [body.end, body.prefix === undefined || body.prefix === '' ? undefined : body.prefix + KEY_CEILING].filter((k): k is string => k !== undefined);
      const rows = await listLive(deps.db, space, { atLeast, below, after, reverse: body.reverse === true, limit }, new Date(deps.clock.now()));
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return { entries: shown.map(view), cursor: rows.length > limit && last !== undefined ? encodeListCursor(last.key) : null };
    },

    async commit(caller, body) {
      try {
        checkCommit(body);
      } catch (err) {
        const space = await spaceOfInstall(deps.db, caller);
        deps.metrics.refusedBy(space.appId, err);
        throw err;
      }
      const space = await enter(caller, 'commit');
      try {
        const result = await deps.db.transaction((tx) => applyCommit(tx, space, body, new Date(deps.clock.now())));
        deps.metrics.bytes(space.appId, result.bytesDelta);
        return { ok: true as const, versionstamp: result.versionstamp };
      } catch (err) {
        deps.metrics.refusedBy(space.appId, err);
        throw err;
      }
    },
  };
}
