/**
 * @module apps/versions/store
 * SQL of app versions (table of 005_apps.sql). Versions are numbered per app from 1, one at a time
 * under the app's row lock, and never change once written.
 */
import type { Manifest } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';

export type Target = 'preview' | 'production';

export interface VersionRow {
  app_id: string;
  version: number;
  target: Target;
  manifest: Manifest;
  manifest_hash: string;
  bundle_sha256: string | null;
  bundle_bytes: number | null;
  /** The source map uploaded with the bundle (docs/decisions/logs.md), else null. */
  source_map_sha256?: string | null;
  source_map_bytes?: number | null;
  created_at: Date;
  /** The earlier version this one copies (a rollback), else null. */
  rollback_of?: number | null;
}

const COLUMNS = 'app_id, version, target, manifest, manifest_hash, bundle_sha256, bundle_bytes, created_at, rollback_of, source_map_sha256, source_map_bytes';

export async function insertVersion(db: Db, row: VersionRow): Promise<void> {
  await db.query(`insert into app_versions (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [row.app_id, row.version, row.target, JSON.stringify(row.manifest), row.manifest_hash, row.bundle_sha256, row.bundle_bytes, row.created_at,
      row.rollback_of ?? null, row.source_map_sha256 ?? null, row.source_map_bytes ?? null]);
}

/** A hosted version's bundle as the tooling answers name it, with its source map (null without one). */
export function bundleOf(row: VersionRow): { sha256: string; bytes: number; sourceMap: { sha256: string; bytes: number } | null } | null {
  if (row.bundle_sha256 === null) return null;
  const sourceMap = row.source_map_sha256 == null ? null : { sha256: row.source_map_sha256, bytes: row.source_map_bytes ?? 0 };
  return { sha256: row.bundle_sha256, bytes: row.bundle_bytes ?? 0, sourceMap };
}

/** Versions of the app, newest first: `limit` of them below `before` (a version number) when given. */
export async function listVersions(db: Db, appId: string, limit: number, before?: number): Promise<VersionRow[]> {
  const { rows } = await db.query<VersionRow>(
    `select ${COLUMNS} from app_versions where app_id = $1 and ($2::int is null or version < $2) order by version desc limit $3`,
    [appId, before ?? null, limit]);
  return rows;
}

/** The newest version of the app, of one target when `target` is given. */
export async function latestVersion(db: Db, appId: string, target?: Target): Promise<VersionRow | undefined> {
  const { rows } = await db.query<VersionRow>(
    `select ${COLUMNS} from app_versions where app_id = $1 and ($2::text is null or target = $2) order by version desc limit 1`,
    [appId, target ?? null]);
  return rows[0];
}

export async function findVersion(db: Db, appId: string, version: number): Promise<VersionRow | undefined> {
  const { rows } = await db.query<VersionRow>(`select ${COLUMNS} from app_versions where app_id = $1 and version = $2`, [appId, version]);
  return rows[0];
}

export async function nextVersionNumber(db: Db, appId: string): Promise<number> {
  const { rows } = await db.query<{ n: number | null }>('select max(version) as n from app_versions where app_id = $1', [appId]);
  return (rows[0]?.n ?? 0) + 1;
}


/** The newest production version older than `version`. */
export async function productionBefore(db: Db, appId: string, version: number): Promise<VersionRow | undefined> {
  const { rows } = await db.query<VersionRow>(
    `select ${COLUMNS} from app_versions where app_id = $1 and target = 'production' and version < $2 order by version desc limit 1`, [appId, version]);
  return rows[0];
}

/**
 * The production version the platform serves where no install's own version decides: the newest
 * one that is not being rolled out and was not aborted. (A version under a running rollout is run
 * only by the installs it moved; an aborted one by none.)
 */
export async function servedProductionVersion(db: Db, appId: string): Promise<number | undefined> {
  const { rows } = await db.query<{ version: number }>(
    `select v.version from app_versions v
      where v.app_id = $1 and v.target = 'production'
        and not exists (select 1 from rollouts r where r.app_id = v.app_id and r.version = v.version and r.status in ('running', 'aborted'))
      order by v.version desc limit 1`, [appId]);
  return rows[0]?.version;
}
