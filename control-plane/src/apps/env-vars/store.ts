/**
 * @module apps/env-vars/store
 * SQL of environment variables per app and target. Values are stored sealed, secret or not.
 */
import type { Db } from '../../core/db/db.ts';
import type { Target } from '../versions/store.ts';

export interface EnvVarRow {
  app_id: string;
  target: Target;
  key: string;
  value_enc: string;
  secret: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'app_id, target, key, value_enc, secret, created_at, updated_at';

export async function listEnvVars(db: Db, appId: string, target: Target): Promise<EnvVarRow[]> {
  const { rows } = await db.query<EnvVarRow>(`select ${COLUMNS} from app_env_vars where app_id = $1 and target = $2 order by key`, [appId, target]);
  return rows;
}

export async function findEnvVar(db: Db, appId: string, target: Target, key: string): Promise<EnvVarRow | undefined> {
  const { rows } = await db.query<EnvVarRow>(`select ${COLUMNS} from app_env_vars where app_id = $1 and target = $2 and key = $3`, [appId, target, key]);
  return rows[0];
}

export async function countEnvVars(db: Db, appId: string, target: Target): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from app_env_vars where app_id = $1 and target = $2', [appId, target]);
  return rows[0]?.n ?? 0;
}

export async function upsertEnvVar(db: Db, row: EnvVarRow): Promise<void> {
  await db.query(
    `insert into app_env_vars (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (app_id, target, key) do update set value_enc = excluded.value_enc, secret = excluded.secret, updated_at = excluded.updated_at`,
    [row.app_id, row.target, row.key, row.value_enc, row.secret, row.created_at, row.updated_at]);
}

export async function deleteEnvVar(db: Db, appId: string, target: Target, key: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from app_env_vars where app_id = $1 and target = $2 and key = $3', [appId, target, key]);
  return rowCount > 0;
}

/** Serializes writers of one environment, so the count limit holds under concurrent sets. */
export async function lockEnvironment(tx: Db, appId: string, target: Target): Promise<void> {
  await tx.query("select pg_advisory_xact_lock(hashtext('platform:env:' || $1 || ':' || $2))", [appId, target]);
}
