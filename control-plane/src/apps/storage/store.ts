/**
 * @module apps/storage/store
 * The SQL of app storage. A space is one app's data in one workspace for one install kind
 * (docs/decisions/storage.md); every statement names all three, so an install reaches only its own.
 * "Live" entries are those not expired at `now` (the service's clock, not the database's).
 */
import type { Db } from '../../core/db/db.ts';

export interface StorageSpace {
  appId: string;
  workspaceId: string;
  kind: 'workspace' | 'dev';
}

export interface EntryRow {
  key: string;
  value: unknown;
  versionstamp: number;
  bytes: number;
  expires_at: Date | null;
}

const SPACE = 'app_id = $1 and workspace_id = $2 and kind = $3';
const spaceParams = (s: StorageSpace): unknown[] => [s.appId, s.workspaceId, s.kind];
const LIVE = (at: string) => `(expires_at is null or expires_at > ${at})`;

/** The live entries among `keys`. */
export async function readLive(db: Db, space: StorageSpace, keys: readonly string[], now: Date): Promise<EntryRow[]> {
  const { rows } = await db.query<EntryRow>(
    `select key, value, versionstamp, bytes, expires_at from app_storage_entries where ${SPACE} and key = any($4::text[]) and ${LIVE('$5')}`,
    [...spaceParams(space), keys, now],
  );
  return rows;
}

/** Every stored row among `keys`, expired or not (a commit replaces expired rows and counts their bytes). */
export async function readStored(db: Db, space: StorageSpace, keys: readonly string[]): Promise<EntryRow[]> {
  const { rows } = await db.query<EntryRow>(
    `select key, value, versionstamp, bytes, expires_at from app_storage_entries where ${SPACE} and key = any($4::text[])`,
    [...spaceParams(space), keys],
  );
  return rows;
}

export interface ListRange {
  /** Inclusive lower bounds and exclusive upper bounds; every one present applies. */
  atLeast: string[];
  below: string[];
  /** Continue strictly after (or, reversed, before) this key. */
  after: string | null;
  reverse: boolean;
  limit: number;
}

/** Live entries within the bounds, in byte order (or reversed), `limit + 1` of them to tell whether more follow. */
export async function listLive(db: Db, space: StorageSpace, range: ListRange, now: Date): Promise<EntryRow[]> {
  const params: unknown[] = [...spaceParams(space), now];
  const where = [SPACE, LIVE('$4')];
  const bind = (v: unknown) => { params.push(v); return `$${params.length}`; };
  for (const v of range.atLeast) where.push(`key >= ${bind(v)}`);
  for (const v of range.below) where.push(`key < ${bind(v)}`);
  if (range.after !== null) where.push(`key ${range.reverse ? '<' : '>'} ${bind(range.after)}`);
  const { rows } = await db.query<EntryRow>(
    `select key, value, versionstamp, bytes, expires_at from app_storage_entries where ${where.join(' and ')}
     order by key ${range.reverse ? 'desc' : 'asc'} limit ${bind(range.limit + 1)}`,
    params,
  );
  return rows;
}

/** Creates the space on its first write; an existing one is left as it is (and not locked). */
export async function ensureSpace(db: Db, space: StorageSpace): Promise<void> {
  await db.query(`insert into app_storage_spaces (app_id, workspace_id, kind) values ($1, $2, $3) on conflict do nothing`, spaceParams(space));
}

/**
 * Serializes commits that touch the same keys of a space until their transactions end: a
 * transaction-scoped advisory lock per key, taken in one order (the locks' own) so two commits never
 * wait on each other in a cycle. Locks cover absent keys too, which row locks cannot.
 */
export async function lockKeys(db: Db, space: StorageSpace, keys: readonly string[]): Promise<void> {
  await db.query(
    `select pg_advisory_xact_lock(h) from (
       select distinct hashtextextended($1 || chr(31) || $2 || chr(31) || $3 || chr(31) || k, 0) as h from unnest($4::text[]) as k order by h
     ) locks`,
    [...spaceParams(space), keys],
  );
}

export async function nextVersionstamp(db: Db): Promise<number> {
  const { rows } = await db.query<{ v: number }>(`select nextval('app_storage_versionstamp_seq') as v`);
  return rows[0]!.v;
}

export interface WrittenEntry {
  key: string;
  /** Compact JSON. */
  json: string;
  bytes: number;
  expiresAt: Date | null;
}

export async function writeEntries(db: Db, space: StorageSpace, entries: readonly WrittenEntry[], versionstamp: number): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `insert into app_storage_entries (app_id, workspace_id, kind, key, value, versionstamp, bytes, expires_at)
     select $1, $2, $3, k, v::jsonb, $4, b, e from unnest($5::text[], $6::text[], $7::int[], $8::timestamptz[]) as t (k, v, b, e)
     on conflict (app_id, workspace_id, kind, key) do update
       set value = excluded.value, versionstamp = excluded.versionstamp, bytes = excluded.bytes, expires_at = excluded.expires_at`,
    [...spaceParams(space), versionstamp, entries.map((e) => e.key), entries.map((e) => e.json), entries.map((e) => e.bytes), entries.map((e) => e.expiresAt)],
  );
}

export async function deleteEntries(db: Db, space: StorageSpace, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query(`delete from app_storage_entries where ${SPACE} and key = any($4::text[])`, [...spaceParams(space), keys]);
}

/** Adds to the space's usage and answers the new totals (the quota is checked against them). */
export async function addUsage(db: Db, space: StorageSpace, keys: number, bytes: number): Promise<{ keys: number; bytes: number }> {
  const { rows } = await db.query<{ keys: number; bytes: number }>(
    `update app_storage_spaces set keys = keys + $4, bytes = bytes + $5 where ${SPACE} returning keys, bytes`,
    [...spaceParams(space), keys, bytes],
  );
  return rows[0]!;
}
