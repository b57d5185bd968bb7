/**
 * @module apps/rollouts/store
 * SQL of rollouts and the installs they moved (tables of 029_rollouts.sql). The production version
 * served where no install decides is `servedProductionVersion` (versions/store.ts).
 */
import type { Db } from '../../core/db/db.ts';

export type RolloutStatus = 'running' | 'promoted' | 'aborted';

export interface RolloutRow {
  id: string;
  app_id: string;
  version: number;
  percent: number;
  status: RolloutStatus;
  reason: string | null;
  aborted_by: 'author' | 'platform' | null;
  verdict: Record<string, unknown> | null;
  started_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

export interface RolloutInstallRow {
  install_id: string;
  previous_version: number;
  previous_scopes: string[];
  moved_at: Date;
  reverted_at: Date | null;
}

const COLUMNS = 'id, app_id, version, percent, status, reason, aborted_by, verdict, started_at, updated_at, ended_at';

export async function insertRollout(db: Db, row: Pick<RolloutRow, 'id' | 'app_id' | 'version' | 'percent' | 'started_at'>): Promise<void> {
  await db.query(`insert into rollouts (id, app_id, version, percent, status, started_at, updated_at) values ($1, $2, $3, $4, 'running', $5, $5)`,
    [row.id, row.app_id, row.version, row.percent, row.started_at]);
}

/** The app's running rollout, locked until the transaction ends when `lock`. */
export async function runningRollout(db: Db, appId: string, lock = false): Promise<RolloutRow | undefined> {
  const { rows } = await db.query<RolloutRow>(
    `select ${COLUMNS} from rollouts where app_id = $1 and status = 'running'${lock ? ' for update' : ''}`, [appId]);
  return rows[0];
}

/** The app's newest rollout, whatever its status (a version is rolled out at most once, when it is recorded). */
export async function latestRollout(db: Db, appId: string): Promise<RolloutRow | undefined> {
  const { rows } = await db.query<RolloutRow>(`select ${COLUMNS} from rollouts where app_id = $1 order by version desc limit 1`, [appId]);
  return rows[0];
}

export async function listRunningRollouts(db: Db): Promise<RolloutRow[]> {
  const { rows } = await db.query<RolloutRow>(`select ${COLUMNS} from rollouts where status = 'running' order by started_at, id`);
  return rows;
}

export async function setPercent(db: Db, id: string, percent: number, at: Date): Promise<void> {
  await db.query('update rollouts set percent = $2, updated_at = $3 where id = $1', [id, percent, at]);
}

/**
 * Ends a running rollout. Conditional on it still running, so of several control planes ending
 * the same rollout at once exactly one is told `true` (and does what follows: moves, mail).
 */
export async function finishRollout(db: Db, id: string, end: { status: 'promoted' | 'aborted'; reason?: string; abortedBy?: 'author' | 'platform'; verdict?: unknown; at: Date }): Promise<boolean> {
  const { rows } = await db.query(
    `update rollouts set status = $2, reason = $3, aborted_by = $4, verdict = $5, percent = case when $2 = 'promoted' then 100 else percent end,
       updated_at = $6, ended_at = $6 where id = $1 and status = 'running' returning id`,
    [id, end.status, end.reason ?? null, end.abortedBy ?? null, end.verdict === undefined ? null : JSON.stringify(end.verdict), end.at]);
  return rows.length === 1;
}

export async function recordMoved(db: Db, rolloutId: string, installId: string, previousVersion: number, previousScopes: readonly string[], at: Date): Promise<void> {
  await db.query('insert into rollout_installs (rollout_id, install_id, previous_version, previous_scopes, moved_at) values ($1, $2, $3, $4, $5)',
    [rolloutId, installId, previousVersion, JSON.stringify(previousScopes), at]);
}

export async function movedInstalls(db: Db, rolloutId: string): Promise<RolloutInstallRow[]> {
  const { rows } = await db.query<RolloutInstallRow>(
    'select install_id, previous_version, previous_scopes, moved_at, reverted_at from rollout_installs where rollout_id = $1 order by install_id', [rolloutId]);
  return rows;
}

export async function markReverted(db: Db, rolloutId: string, installId: string, at: Date): Promise<void> {
  await db.query('update rollout_installs set reverted_at = $3 where rollout_id = $1 and install_id = $2', [rolloutId, installId, at]);
}

/** Installs by the version they run (live workspace installs of the app): the operator's view. */
export async function installsByVersion(db: Db, appId: string): Promise<Array<{ version: number; installs: number }>> {
  const { rows } = await db.query<{ version: number; installs: string }>(
    `select version, count(*) as installs from installs where app_id = $1 and kind = 'workspace' and status <> 'uninstalled' group by version order by version`, [appId]);
  return rows.map((r) => ({ version: r.version, installs: Number(r.installs) }));
}
