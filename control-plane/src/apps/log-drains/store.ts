/**
 * @module apps/log-drains/store
 * SQL of `app_log_drains` (migration 032_log_drains.sql): the drains of an app, claiming the drains
 * that have lines to send (a lease, so two replicas never send one drain's batch at once), and
 * recording what an attempt came to.
 */
import type { Db } from '../../core/db/db.ts';

export interface DrainRow {
  id: string;
  app_id: string;
  url: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  after_seq: string;
  retry_through: string | null;
  state: 'active' | 'disabled';
  disabled_reason: string | null;
  failures: number;
  failing_since: Date | null;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  last_status: number | null;
  last_error: string | null;
  last_delivered_at: Date | null;
  created_at: Date;
}

export async function listDrains(db: Db, appId: string): Promise<DrainRow[]> {
  const { rows } = await db.query<DrainRow>('select * from app_log_drains where app_id = $1 order by created_at, id', [appId]);
  return rows;
}

export async function findDrain(db: Db, appId: string, id: string): Promise<DrainRow | undefined> {
  const { rows } = await db.query<DrainRow>('select * from app_log_drains where app_id = $1 and id = $2', [appId, id]);
  return rows[0];
}

/**
 * Adds a drain that starts after the app's newest stored line, unless the app already has `max`
 * (counted under a lock on the app row, so two concurrent adds cannot both pass). Null when full.
 */
export async function insertDrain(db: Db, row: { id: string; appId: string; url: string; secretEnc: string; at: Date }, max: number): Promise<DrainRow | null> {
  return db.transaction(async (tx) => {
    await tx.query('select 1 from apps where id = $1 for no key update', [row.appId]);
    const { rows: counted } = await tx.query<{ n: number }>('select count(*)::int as n from app_log_drains where app_id = $1', [row.appId]);
    if (counted[0]!.n >= max) return null;
    const { rows } = await tx.query<DrainRow>(
      `insert into app_log_drains (id, app_id, url, secret_enc, after_seq, created_at)
       values ($1, $2, $3, $4, coalesce((select max(seq) from app_logs where app_id = $2), 0), $5) returning *`,
      [row.id, row.appId, row.url, row.secretEnc, row.at]);
    return rows[0]!;
  });
}

export async function deleteDrain(db: Db, appId: string, id: string): Promise<boolean> {
  return (await db.query('delete from app_log_drains where app_id = $1 and id = $2', [appId, id])).rowCount > 0;
}

export async function rotateSecret(db: Db, appId: string, id: string, secretEnc: string, previousUntil: Date): Promise<DrainRow | undefined> {
  const { rows } = await db.query<DrainRow>(
    `update app_log_drains set previous_secret_enc = secret_enc, previous_secret_expires_at = $4, secret_enc = $3
     where app_id = $1 and id = $2 returning *`, [appId, id, secretEnc, previousUntil]);
  return rows[0];
}

/** Active again with a clean record; it resumes where it stopped (lines pruned meanwhile are gone). */
export async function enableDrain(db: Db, appId: string, id: string): Promise<DrainRow | undefined> {
  const { rows } = await db.query<DrainRow>(
    `update app_log_drains set state = 'active', disabled_reason = null, failures = 0, failing_since = null, next_attempt_at = null
     where app_id = $1 and id = $2 returning *`, [appId, id]);
  return rows[0];
}

/**
 * Claims up to `limit` active drains that are due and have a line after their cursor (or a batch
 * to retry), leased until `leaseUntil`.
 */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<DrainRow[]> {
  const { rows } = await db.query<DrainRow>(
    `update app_log_drains set lease_until = $2 where id in (
       select d.id from app_log_drains d
       where d.state = 'active' and (d.next_attempt_at is null or d.next_attempt_at <= $1) and (d.lease_until is null or d.lease_until <= $1)
         and exists (select 1 from app_logs l where l.app_id = d.app_id and l.seq > d.after_seq)
       order by d.next_attempt_at nulls first, d.id
       limit $3 for update skip locked)
     returning *`, [now, leaseUntil, limit]);
  return rows;
}

/** A batch acknowledged: the cursor moves past it and the failure streak ends. */
export async function recordDelivered(db: Db, id: string, through: number, at: Date, status: number): Promise<void> {
  await db.query(
    `update app_log_drains set after_seq = greatest(after_seq, $2), retry_through = null, failures = 0, failing_since = null, next_attempt_at = null,
       lease_until = null, last_status = $4, last_error = null, last_delivered_at = $3 where id = $1`, [id, through, at, status]);
}

/**
 * A batch that failed: the same range is retried at `nextAt`, or the drain is disabled with
 * `disabledReason`. True when this call disabled it.
 */
export async function recordFailed(db: Db, id: string, f: { through: number; at: Date; nextAt: Date; status: number | null; error: string; disabledReason: string | null }): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `update app_log_drains set retry_through = $2, failures = failures + 1, failing_since = coalesce(failing_since, $3), next_attempt_at = $4,
       lease_until = null, last_status = $5, last_error = $6,
       state = case when $7::text is null then state else 'disabled' end, disabled_reason = coalesce($7, disabled_reason)
     where id = $1 and state = 'active' returning id`,
    [id, f.through, f.at, f.nextAt, f.status, f.error, f.disabledReason]);
  return rows.length > 0 && f.disabledReason !== null;
}

/** The lease given back without an attempt (nothing left to send: the lines were pruned). */
export async function release(db: Db, id: string, afterSeq: number | null): Promise<void> {
  await db.query('update app_log_drains set lease_until = null, after_seq = greatest(after_seq, coalesce($2, after_seq)), retry_through = null where id = $1', [id, afterSeq]);
}
