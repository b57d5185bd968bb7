/**
 * @module apps/assets/store
 * SQL of `assets` and `asset_sources` (migration 023_assets.sql).
 */
import type { Db } from '../../core/db/db.ts';
import type { ImageType } from './sniff.ts';

export interface AssetRow {
  id: string;
  sha256: string;
  content_type: ImageType;
  size_bytes: number;
  width: number;
  height: number;
}

export interface NewAsset extends AssetRow {
  /** The bytes when the database keeps them; null when the object store does. */
  content: Uint8Array | null;
  createdAt: Date;
}

const COLUMNS = 'id, sha256, content_type, size_bytes, width, height';

/** Inserts the asset unless its bytes are stored already (the same bytes are the same asset). */
export async function insertAsset(db: Db, asset: NewAsset): Promise<void> {
  await db.query(
    `insert into assets (${COLUMNS}, content, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing`,
    [asset.id, asset.sha256, asset.content_type, asset.size_bytes, asset.width, asset.height, asset.content, asset.createdAt],
  );
}

export async function findAsset(db: Db, id: string): Promise<AssetRow | undefined> {
  const { rows } = await db.query<AssetRow>(`select ${COLUMNS} from assets where id = $1`, [id]);
  return rows[0];
}

export async function findAssetContent(db: Db, id: string): Promise<(AssetRow & { content: Uint8Array | null }) | undefined> {
  const { rows } = await db.query<AssetRow & { content: Uint8Array | null }>(`select ${COLUMNS}, content from assets where id = $1`, [id]);
  return rows[0];
}

/** Which of `ids` are stored. */
export async function storedAssets(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>('select id from assets where id = any($1::text[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

/** The asset last copied from each of `urls` at or after `since`. */
export async function copiesOf(db: Db, urls: readonly string[], since: Date): Promise<Map<string, string>> {
  if (urls.length === 0) return new Map();
  const { rows } = await db.query<{ url: string; asset_id: string }>(
    'select url, asset_id from asset_sources where url = any($1::text[]) and copied_at >= $2', [urls, since]);
  return new Map(rows.map((r) => [r.url, r.asset_id]));
}

export async function rememberCopy(db: Db, url: string, assetId: string, at: Date): Promise<void> {
  await db.query(
    `insert into asset_sources (url, asset_id, copied_at) values ($1, $2, $3)
     on conflict (url) do update set asset_id = excluded.asset_id, copied_at = excluded.copied_at`,
    [url, assetId, at],
  );
}
