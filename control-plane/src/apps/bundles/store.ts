/**
 * @module apps/bundles/store
 * SQL of the `bundles` table (migration 017_bundles.sql) and of its twin `source_maps` (024): the
 * index of every stored bundle (source map), with its bytes in `content` when the database holds
 * them (null when an object store does). Every function takes the table it works on.
 */
import type { Db } from '../../core/db/db.ts';

/** The content-addressed tables, with the version column that refers to each. */
export const BLOB_TABLES = {
  bundles: { table: 'bundles', versionColumn: 'bundle_sha256' },
  source_maps: { table: 'source_maps', versionColumn: 'source_map_sha256' },
} as const;
export type BlobTable = keyof typeof BLOB_TABLES;

export interface BundleRow {
  sha256: string;
  size_bytes: number;
  content: Uint8Array | null;
}

/**
 * Refreshes `stored_at` of a bundle whose bytes the database holds; false when there is none. An
 * upload of bytes already stored costs one short statement, not 10 MB sent again.
 */
export async function touchStoredBundle(db: Db, sha256: string, at: Date, table: BlobTable = 'bundles'): Promise<boolean> {
  const { rowCount } = await db.query(`update ${table} set stored_at = $2 where sha256 = $1 and content is not null`, [sha256, at]);
  return rowCount > 0;
}

/** Stores the bytes in the database (a row indexed for the object store gets them too). */
export async function upsertBundleContent(db: Db, sha256: string, content: Uint8Array, at: Date, table: BlobTable = 'bundles'): Promise<void> {
  await db.query(
    `insert into ${table} (sha256, size_bytes, content, stored_at) values ($1, $2, $3, $4)
     on conflict (sha256) do update set stored_at = excluded.stored_at, content = excluded.content`,
    [sha256, content.byteLength, content, at],
  );
}

/**
 * Indexes a bundle whose bytes go to the object store, or refreshes the row of one already there.
 * True when the database holds its bytes already (nothing to upload). Committed before the object
 * is written: a collector that deletes the object holds this row locked until it is done, so the
 * upload that follows this statement is never undone by it.
 */
export async function upsertBundleIndex(db: Db, sha256: string, size: number, at: Date, table: BlobTable = 'bundles'): Promise<boolean> {
  const { rows } = await db.query<{ in_database: boolean }>(
    `insert into ${table} (sha256, size_bytes, content, stored_at) values ($1, $2, null, $3)
     on conflict (sha256) do update set stored_at = excluded.stored_at
     returning content is not null as in_database`,
    [sha256, size, at],
  );
  return rows[0]?.in_database === true;
}

export async function findBundle(db: Db, sha256: string, table: BlobTable = 'bundles'): Promise<BundleRow | undefined> {
  const { rows } = await db.query<BundleRow>(`select sha256, size_bytes, content from ${table} where sha256 = $1`, [sha256]);
  return rows[0];
}

export async function bundleExists(db: Db, sha256: string, table: BlobTable = 'bundles'): Promise<boolean> {
  const { rows } = await db.query(`select 1 from ${table} where sha256 = $1`, [sha256]);
  return rows.length > 0;
}

/** Which of `hashes` are stored already. */
export async function storedAmong(db: Db, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const { rows } = await db.query<{ sha256: string }>('select sha256 from bundles where sha256 = any($1::text[])', [hashes]);
  return new Set(rows.map((r) => r.sha256));
}

/** The collector runs in one replica at a time: a transaction-scoped advisory lock, not waited for. */
export async function tryLockCollector(tx: Db): Promise<boolean> {
  const { rows } = await tx.query<{ locked: boolean }>(`select pg_try_advisory_xact_lock(hashtext('platform:bundle-collector:' || current_schema())) as locked`);
  return rows[0]?.locked === true;
}

/**
 * Bundles no version refers to, last stored before `cutoff`, locked until the transaction ends
 * (an upload of the same bytes waits for it). Whether the bytes are in the database is returned,
 * not the bytes.
 */
export async function lockCollectable(tx: Db, cutoff: Date, limit: number, withObjects: boolean, table: BlobTable = 'bundles'): Promise<Array<{ sha256: string; in_database: boolean }>> {
  const { versionColumn } = BLOB_TABLES[table];
  // Without an object store, rows whose bytes are in one stay (deleting them would orphan the objects).
  const { rows } = await tx.query<{ sha256: string; in_database: boolean }>(
    `select b.sha256, b.content is not null as in_database from ${table} b
      where b.stored_at < $1 and ($3::boolean or b.content is not null)
        and not exists (select 1 from app_versions v where v.${versionColumn} = b.sha256)
      order by b.stored_at limit $2
      for update of b skip locked`,
    [cutoff, limit, withObjects],
  );
  return rows;
}

export async function deleteBundles(tx: Db, hashes: string[], table: BlobTable = 'bundles'): Promise<void> {
  if (hashes.length > 0) await tx.query(`delete from ${table} where sha256 = any($1::text[])`, [hashes]);
}
