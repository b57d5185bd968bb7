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

/**
 * Every stored row among `keys`, expired or not (a commit replaces expired rows and counts their
 * bytes), and the commit's versionstamp drawn in the same statement: one round trip, after the
 * keys' locks (a read in the statement that waits for a lock would see the state from before it).
 */
export async function readStoredAndStamp(db: Db, space: StorageSpace, keys: readonly string[]): Promise<{ rows: EntryRow[]; versionstamp: number }> {
  const { rows } = await db.query<EntryRow & { stamp: number }>(
    `select s.stamp, e.key, e.value, e.versionstamp, e.bytes, e.expires_at
     from (select nextval('app_storage_versionstamp_seq') as stamp) s
     left join app_storage_entries e on e.app_id = $1 and e.workspace_id = $2 and e.kind = $3 and e.key = any($4::text[])`,
    [...spaceParams(space), keys],
  );
  return { versionstamp: rows[0]!.stamp, rows: rows.filter((r) => r.key !== null).map(({ stamp: _, ...row }) => row) };
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

export interface CommitWrites {
  writes: readonly WrittenEntry[];
  deletes: readonly string[];
  versionstamp: number;
  /** How the space's usage changes; the row is touched only when one is not 0. */
  keysDelta: number;
  bytesDelta: number;
}

/**
 * A commit's writes, deletes and usage change in one statement; answers the space's new usage when
 * it changed (the caller checks the quotas and rolls back). The space row is created with its
 * first write (only a commit that adds a key can meet no row, and its deltas are then its own
 * totals); the entries' foreign key is checked at the statement's end, after that insert.
 */
export async function writeCommit(db: Db, space: StorageSpace, c: CommitWrites): Promise<{ keys: number; bytes: number } | null> {
  const usage = c.keysDelta !== 0 || c.bytesDelta !== 0;
  if (c.writes.length === 0 && c.deletes.length === 0 && !usage) return null;
  const params: unknown[] = [...spaceParams(space)];
  const bind = (v: unknown) => { params.push(v); return `$${params.length}`; };
  const parts: string[] = [];
  if (c.writes.length > 0) {
    parts.push(`w as (insert into app_storage_entries (app_id, workspace_id, kind, key, value, versionstamp, bytes, expires_at)
      select $1, $2, $3, k, v::jsonb, ${bind(c.versionstamp)}, b, e
      from unnest(${bind(c.writes.map((e) => e.key))}::text[], ${bind(c.writes.map((e) => e.json))}::text[], ${bind(c.writes.map((e) => e.bytes))}::int[], ${bind(c.writes.map((e) => e.expiresAt))}::timestamptz[]) as t (k, v, b, e)
      on conflict (app_id, workspace_id, kind, key) do update
        set value = excluded.value, versionstamp = excluded.versionstamp, bytes = excluded.bytes, expires_at = excluded.expires_at
      returning 1)`);
  }
  if (c.deletes.length > 0) parts.push(`d as (delete from app_storage_entries where ${SPACE} and key = any(${bind(c.deletes)}::text[]) returning 1)`);
  if (usage) {
    const [k, b] = [bind(c.keysDelta), bind(c.bytesDelta)];
    // The inserted row's values matter only for a new space, whose deltas are never negative (the check constraints see the proposed row).
    parts.push(`u as (insert into app_storage_spaces as s (app_id, workspace_id, kind, keys, bytes) values ($1, $2, $3, greatest(${k}::int, 0), greatest(${b}::bigint, 0))
      on conflict (app_id, workspace_id, kind) do update set keys = s.keys + ${k}::int, bytes = s.bytes + ${b}::bigint
      returning keys, bytes)`);
  }
  const { rows } = await db.query<{ keys: number; bytes: number }>(`with ${parts.join(', ')} ${usage ? 'select keys, bytes from u' : 'select 1'}`, params);
  return usage ? { keys: Number(rows[0]!.keys), bytes: Number(rows[0]!.bytes) } : null;
}
