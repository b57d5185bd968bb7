/**
 * @module apps/ci-identities/store
 * SQL of trusted CI identities (table of 006_credentials.sql).
 */
import type { Db } from '../../core/db/db.ts';

export interface CiIdentityRow {
  id: string;
  app_id: string;
  issuer: string;
  audience: string;
  subject_pattern: string;
  preview_only: boolean;
  created_by_member_id: string | null;
  created_at: Date;
}

const COLUMNS = 'id, app_id, issuer, audience, subject_pattern, preview_only, created_by_member_id, created_at';

export async function insertCiIdentity(db: Db, row: CiIdentityRow): Promise<void> {
  await db.query(`insert into ci_identities (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, row.app_id, row.issuer, row.audience, row.subject_pattern, row.preview_only, row.created_by_member_id, row.created_at]);
}

export async function listCiIdentities(db: Db, appId: string): Promise<CiIdentityRow[]> {
  const { rows } = await db.query<CiIdentityRow>(`select ${COLUMNS} from ci_identities where app_id = $1 order by created_at, id`, [appId]);
  return rows;
}

export async function ciIdentitiesForIssuer(db: Db, appId: string, issuer: string): Promise<CiIdentityRow[]> {
  const { rows } = await db.query<CiIdentityRow>(
    `select ${COLUMNS} from ci_identities where app_id = $1 and issuer = $2 order by created_at, id`, [appId, issuer]);
  return rows;
}

export async function countCiIdentities(db: Db, appId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from ci_identities where app_id = $1', [appId]);
  return rows[0]?.n ?? 0;
}

export async function deleteCiIdentity(db: Db, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from ci_identities where app_id = $1 and id = $2', [appId, id]);
  return rowCount > 0;
}

/** The columns the tooling guard reads, or undefined. */
export async function findGuardedApp(db: Db, appId: string): Promise<{ id: string; workspace_id: string; owner_member_id: string } | undefined> {
  const { rows } = await db.query<{ id: string; workspace_id: string; owner_member_id: string }>(
    'select id, workspace_id, owner_member_id from apps where id = $1', [appId]);
  return rows[0];
}

/** Serializes identity creation per app (the count limit holds under concurrency). */
export async function lockAppForIdentities(tx: Db, appId: string): Promise<void> {
  await tx.query('select 1 from apps where id = $1 for no key update', [appId]);
}
