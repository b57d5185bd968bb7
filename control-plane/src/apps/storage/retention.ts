/**
 * @module apps/storage/retention
 * The lifecycle of a space's data (docs/decisions/storage.md): an uninstall keeps it for
 * `LIMITS.storage.retainAfterUninstallMs` (a reinstall within it finds it again), then the sweeper
 * purges it; an admin may purge at once; deleting the app or the workspace removes it by cascade.
 */
import { LIMITS } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import type { StorageSpace } from './store.ts';

const SPACE = 'app_id = $1 and workspace_id = $2 and kind = $3';
const params = (s: StorageSpace) => [s.appId, s.workspaceId, s.kind];

/** At uninstall: the data stays until `at` plus the retention period. */
export async function retainSpace(db: Db, space: StorageSpace, at: Date): Promise<void> {
  await db.query(`update app_storage_spaces set purge_after = $4 where ${SPACE}`, [...params(space), new Date(at.getTime() + LIMITS.storage.retainAfterUninstallMs)]);
}

/** At (re)install: the data is the install's again, kept for good. */
export async function keepSpace(db: Db, space: StorageSpace): Promise<void> {
  await db.query(`update app_storage_spaces set purge_after = null where ${SPACE} and purge_after is not null`, params(space));
}

/** Removes a space and its entries; answers whether there was one. */
export async function purgeSpace(db: Db, space: StorageSpace): Promise<boolean> {
  return (await db.query(`delete from app_storage_spaces where ${SPACE}`, params(space))).rowCount > 0;
}

/** Removes the spaces whose retention ended by `now`; answers how many. */
export async function purgeRetired(db: Db, now: Date): Promise<number> {
  return (await db.query('delete from app_storage_spaces where purge_after <= $1', [now])).rowCount;
}

/**
 * Removes up to `limit` expired entries and gives their keys and bytes back to their spaces. Each
 * entry is taken only under its key's advisory lock (apps/storage/store.ts `lockKeys`), skipped when a
 * commit holds it: that commit replaces the row and counts it itself.
 */
export async function removeExpired(db: Db, now: Date, limit: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `with gone as (
       delete from app_storage_entries e where (app_id, workspace_id, kind, key) in (
         select app_id, workspace_id, kind, key from app_storage_entries
         where expires_at <= $1 and pg_try_advisory_xact_lock(hashtextextended(app_id || chr(31) || workspace_id || chr(31) || kind || chr(31) || key, 0))
         limit $2)
       returning app_id, workspace_id, kind, bytes
     ), sums as (
       select app_id, workspace_id, kind, count(*)::int as keys, sum(bytes)::bigint as bytes from gone group by app_id, workspace_id, kind
     ), charged as (
       update app_storage_spaces s set keys = s.keys - sums.keys, bytes = s.bytes - sums.bytes
       from sums where s.app_id = sums.app_id and s.workspace_id = sums.workspace_id and s.kind = sums.kind returning 1
     )
     select coalesce(sum(keys), 0)::int as n from sums`,
    [now, limit],
  );
  return rows[0]!.n;
}
