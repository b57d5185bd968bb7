/**
 * @module apps/domains/store
 * SQL of the domains an app claims and verifies.
 */
import type { Db } from '../../core/db/db.ts';

export interface DomainRow {
  app_id: string;
  domain: string;
  token: string;
  verified_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'app_id, domain, token, verified_at, created_at';

/** Inserts the domain unless the app already has it; answers the stored row either way. */
export async function upsertDomain(db: Db, row: DomainRow): Promise<DomainRow> {
  await db.query(`insert into app_domains (${COLUMNS}) values ($1, $2, $3, $4, $5) on conflict (app_id, domain) do nothing`,
    [row.app_id, row.domain, row.token, row.verified_at, row.created_at]);
  const found = await findDomain(db, row.app_id, row.domain);
  if (found === undefined) throw new Error('domain vanished right after it was written');
  return found;
}

export async function findDomain(db: Db, appId: string, domain: string): Promise<DomainRow | undefined> {
  const { rows } = await db.query<DomainRow>(`select ${COLUMNS} from app_domains where app_id = $1 and domain = $2`, [appId, domain]);
  return rows[0];
}

export async function listDomains(db: Db, appId: string): Promise<DomainRow[]> {
  const { rows } = await db.query<DomainRow>(`select ${COLUMNS} from app_domains where app_id = $1 order by created_at, domain`, [appId]);
  return rows;
}

export async function markVerified(db: Db, appId: string, domain: string, at: Date): Promise<void> {
  await db.query('update app_domains set verified_at = coalesce(verified_at, $3) where app_id = $1 and domain = $2', [appId, domain, at]);
}

export async function deleteDomain(db: Db, appId: string, domain: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from app_domains where app_id = $1 and domain = $2', [appId, domain]);
  return rowCount > 0;
}

export async function verifiedDomains(db: Db, appId: string): Promise<string[]> {
  const { rows } = await db.query<{ domain: string }>(
    'select domain from app_domains where app_id = $1 and verified_at is not null order by domain', [appId]);
  return rows.map((r) => r.domain);
}
