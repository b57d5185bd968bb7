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
import { listLive, nextVersionstamp, readLive, type EntryRow, type StorageSpace } from './store.ts';
import { overlay, overlayPage, STAGED_COMMIT, stagedCommits, stagedKeys, type StagedCommit } from './stage.ts';
import { checkFailed } from './commit.ts';
import type { UnitOfWork } from '../../core/unit-of-work/unit-of-work.ts';
import { spaceOfInstall, type ToolingSpace } from './space.ts';
import { formatVersionstamp } from './versionstamp.ts';

/** An app's token, or tooling (the CLI, the console) already allowed into one space (apps/storage/tooling.ts). */
export type StorageCaller = InstallCaller | InteractionCaller | ToolingSpace;

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
  /** Where a block action's commits are staged (apps/storage/stage.ts). */
  unitOfWork: UnitOfWork;
  /** Counts each operation let in (usage, apps/usage): the app, the install (null: tooling's), read or write. */
  onOperation?: (appId: string, installId: string | null, op: 'read' | 'write') => void;
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
    deps.onOperation?.(space.appId, caller.kind === 'tooling' ? null : caller.installId, op === 'commit' ? 'write' : 'read');
    return space;
  }

  /** The commits staged under a block action's interaction token; null when the caller has no open unit. */
  async function stagedOf(caller: StorageCaller): Promise<StagedCommit[] | null> {
    if (caller.kind !== 'interaction' || caller.blockId === null) return null;
    const items = await deps.unitOfWork.items(deps.db, caller.unitKey, STAGED_COMMIT);
    return items === null ? null : stagedCommits(items);
  }

  /**
   * Checks `body` against the entries as the action sees them (committed, then staged), so the
   * handler learns of a failed check at once, and stages it; null when the unit closed meanwhile
   * (the commit then applies now). The checks are evaluated again when the unit is applied.
   */
  async function stage(unitKey: string, space: StorageSpace, body: CommitRequest, staged: StagedCommit[]): Promise<string | null> {
    const now = new Date(deps.clock.now());
    const keys = [...new Set((body.checks ?? []).map((c) => c.key))];
    const seen = overlay(new Map((await readLive(deps.db, space, keys, now)).map((r) => [r.key, r])), staged, now);
    (body.checks ?? []).forEach((check, i) => {
      const row = seen.get(check.key);
      if ((row === undefined ? null : formatVersionstamp(row.versionstamp)) !== check.versionstamp) {
        deps.metrics.refusedBy(space.appId, checkFailed(i, check.key));
        throw checkFailed(i, check.key);
      }
    });
    const provisional = formatVersionstamp(await nextVersionstamp(deps.db));
    const item: StagedCommit = { space, commit: body, provisional };
    return (await deps.unitOfWork.stage(deps.db, unitKey, STAGED_COMMIT, item)) ? provisional : null;
  }

  return {
    async get(caller, body) {
      checkGetKeys(body.keys);
      const space = await enter(caller, 'get');
      const now = new Date(deps.clock.now());
      const staged = await stagedOf(caller);
      let found = new Map((await readLive(deps.db, space, body.keys, now)).map((r) => [r.key, r]));
      if (staged !== null && staged.length > 0) found = overlay(found, staged, now);
      return { entries: body.keys.map((key) => { const row = found.get(key); return row === undefined ? { key, value: null, versionstamp: null } : view(row); }) };
    },

    async list(caller, body) {
      const limit = checkListLimit(body.limit);
      for (const [name, key] of [['prefix', body.prefix], ['start', body.start], ['end', body.end]] as const) if (key !== undefined && key !== '') checkKey(key, [name]);
      const after = decodeListCursor(body.cursor);
      const space = await enter(caller, 'list');
      const atLeast = [body.prefix, body.start].filter((k): k is string => k !== undefined && k !== '');
      const below = [body.end, body.prefix === undefined || body.prefix === '' ? undefined : body.prefix + KEY_CEILING].filter((k): k is string => k !== undefined);
      const range = { atLeast, below, after, reverse: body.reverse === true, limit };
      const now = new Date(deps.clock.now());
      const staged = await stagedOf(caller);
      let rows: EntryRow[];
      if (staged === null || staged.length === 0) rows = await listLive(deps.db, space, range, now);
      else {
        // The action lists its own staged writes too, as its gets read them.
        const keys = stagedKeys(staged);
        const page = await listLive(deps.db, space, { ...range, limit: limit + keys.length }, now);
        rows = overlayPage(page, await readLive(deps.db, space, keys, now), staged, range, now);
      }
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
      const staged = await stagedOf(caller);
      if (staged !== null && caller.kind === 'interaction') {
        const provisional = await stage(caller.unitKey, space, body, staged);
        if (provisional !== null) return { ok: true as const, versionstamp: provisional };
      }
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
