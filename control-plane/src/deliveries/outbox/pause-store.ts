/**
 * @module deliveries/outbox/pause-store
 * SQL of install delivery health: since when an install's deliveries fail, pausing (a `410`, or
 * three days of continuous failure) and resuming. Pausing stamps `installs.deliveries_paused_at`
 * and holds the install's pending deliveries (`paused`); resuming makes them due again with a
 * fresh retry schedule.
 */
import type { Db } from '../../core/db/db.ts';

export type PauseReason = 'gone' | 'failing';

/** A success clears the failure streak of these installs. */
export async function clearFailing(db: Db, installIds: readonly string[], at: Date): Promise<void> {
  if (installIds.length === 0) return;
  await db.query(
    'update install_delivery_health set failing_since = null, last_success_at = $2 where install_id = any($1::text[]) and failing_since is not null',
    [[...installIds], at]);
}

/** Starts (or continues) the install's failure streak; answers since when it fails. */
export async function markFailing(db: Db, installId: string, at: Date): Promise<Date> {
  const { rows } = await db.query<{ failing_since: Date }>(
    `insert into install_delivery_health (install_id, failing_since) values ($1, $2)
     on conflict (install_id) do update set failing_since = coalesce(install_delivery_health.failing_since, excluded.failing_since)
     returning failing_since`,
    [installId, at]);
  return rows[0]!.failing_since;
}

/** Pauses the install's deliveries; answers false when they already were paused. */
export async function pauseInstall(tx: Db, installId: string, reason: PauseReason, at: Date): Promise<boolean> {
  const { rowCount } = await tx.query('update installs set deliveries_paused_at = $2 where id = $1 and deliveries_paused_at is null', [installId, at]);
  if (rowCount === 0) return false;
  await tx.query(
    `insert into install_delivery_health (install_id, paused_reason, paused_at) values ($1, $2, $3)
     on conflict (install_id) do update set paused_reason = excluded.paused_reason, paused_at = excluded.paused_at`,
    [installId, reason, at]);
  await tx.query(`update deliveries set status = 'paused' where install_id = $1 and status = 'pending'`, [installId]);
  return true;
}

/**
 * Resumes the install's deliveries: everything that waited is due at `at`, with a fresh retry
 * schedule. Answers how many deliveries were re-queued, or null when deliveries were not paused.
 */
export async function resumeInstall(tx: Db, installId: string, at: Date): Promise<number | null> {
  const { rowCount } = await tx.query('update installs set deliveries_paused_at = null where id = $1 and deliveries_paused_at is not null', [installId]);
  if (rowCount === 0) return null;
  await tx.query('update install_delivery_health set paused_reason = null, paused_at = null, failing_since = null where install_id = $1', [installId]);
  const requeued = await tx.query(
    `update deliveries set status = 'pending', next_attempt_at = $2, schedule_attempts = 0, lease = null
      where install_id = $1 and status = 'paused'`, [installId, at]);
  return requeued.rowCount;
}

export interface InstallHealthRow {
  install_id: string;
  workspace_id: string;
  kind: 'workspace' | 'dev';
  status: string;
  deliveries_paused_at: Date | null;
  paused_reason: PauseReason | null;
  failing_since: Date | null;
  last_success_at: Date | null;
}

/** Every install of the app (uninstalled ones too: their deliveries stay listed) with its delivery health. */
export async function appInstallHealth(db: Db, appId: string): Promise<InstallHealthRow[]> {
  const { rows } = await db.query<InstallHealthRow>(
    `select i.id as install_id, i.workspace_id, i.kind, i.status, i.deliveries_paused_at, h.paused_reason, h.failing_since, h.last_success_at
       from installs i left join install_delivery_health h on h.install_id = i.id
      where i.app_id = $1 order by i.created_at, i.id`,
    [appId]);
  return rows;
}

export interface InstallOwnerRow {
  app_id: string;
  app_name: string;
  slug: string;
  owner_member_id: string;
  workspace_id: string;
}

/** Who owns the app of an install (the pause mail goes to them). */
export async function installOwner(db: Db, installId: string): Promise<InstallOwnerRow | undefined> {
  const { rows } = await db.query<InstallOwnerRow>(
    `select a.id as app_id, a.name as app_name, a.slug, a.owner_member_id, i.workspace_id
       from installs i join apps a on a.id = i.app_id where i.id = $1`, [installId]);
  return rows[0];
}
