/**
 * @module deliveries/outbox/store
 * SQL of the delivery loop: claiming due deliveries, reading what their envelopes need, and
 * recording outcomes and attempts, each in one statement per batch.
 *
 * A claim takes due rows with FOR UPDATE SKIP LOCKED (workers of every process share the table
 * without waiting on each other), counts the attempt, stamps a lease and moves `next_attempt_at`
 * to the lease's end: if the worker dies, the row is due again then. A row claimed while it still
 * carried a lease was abandoned by a worker that stopped mid-attempt; that attempt is recorded
 * without an outcome. An outcome is applied only while the row still carries the worker's lease.
 */
import type { Db } from '../../core/db/db.ts';
import { TARGET_COLUMNS, targetFromRow, type InstallTarget, type TargetColumns } from '../pipeline/install-target.ts';

export interface ClaimedRow {
  id: string;
  app_id: string;
  install_id: string;
  type: string;
  attempts: number;
  schedule_attempts: number;
  /** Attempts before the delivery is dead (a queue's `maxAttempts`); null: the outbox's 20. */
  max_attempts: number | null;
  created_at: Date;
  payload: Record<string, unknown>;
  actor: { memberId: string; name: string } | null;
}

/**
 * Makes the rest of the transaction read due rows through their index in order, stopping at the
 * limit. Left to itself the planner, with statistics taken before a backlog built up (they lag a
 * table that grows fast), estimates a few due rows and chooses a bitmap scan of every due row and
 * a sort: each claim then costs the whole backlog (99 ms of Postgres for 200 of 23,000 pending
 * rows, measured by the initiative bench), the ordered scan only the rows it takes.
 */
export async function preferOrderedScan(tx: Db): Promise<void> {
  await tx.query(`select set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true)`);
}

export async function claimDue(db: Db, input: { now: Date; limit: number; lease: string; leaseUntil: Date }): Promise<ClaimedRow[]> {
  return db.transaction(async (tx) => {
    await preferOrderedScan(tx);
    return claimDueIn(tx, input);
  });
}

/** The claim: $1 now, $2 limit, $3 lease, $4 lease end (exported for the test of its plan). */
export const CLAIM_SQL = `with picked as (
       select id, lease as prev_lease, attempts as prev_attempts, last_attempt_at as prev_at
         from deliveries
        where status = 'pending' and next_attempt_at <= $1
        order by next_attempt_at
        limit $2
        for update skip locked
     ), abandoned as (
       insert into delivery_attempts (delivery_id, attempt, started_at, duration_ms, status, error)
       select id, prev_attempts, coalesce(prev_at, $1), null, null, 'No outcome: the worker stopped during the attempt'
         from picked where prev_lease is not null and prev_attempts > 0
       on conflict do nothing
     ), claimed as (
       update deliveries d
          set attempts = d.attempts + 1, schedule_attempts = d.schedule_attempts + 1, lease = $3, next_attempt_at = $4, last_attempt_at = $1
         from picked where d.id = picked.id
       returning d.id, d.app_id, d.install_id, d.type, d.event_id, d.attempts, d.schedule_attempts, d.max_attempts, d.created_at
     )
     select c.id, c.app_id, c.install_id, c.type, c.attempts, c.schedule_attempts, c.max_attempts, c.created_at, e.payload, e.actor
       from claimed c join outbox_events e on e.id = c.event_id`;

async function claimDueIn(db: Db, input: { now: Date; limit: number; lease: string; leaseUntil: Date }): Promise<ClaimedRow[]> {
  const { rows } = await db.query<ClaimedRow>(CLAIM_SQL, [input.now, input.limit, input.lease, input.leaseUntil]);
  return rows;
}

/** An install of a batch with its app (what the envelopes, signatures and targets need), and whether its deliveries are paused. */
export interface BatchInstall {
  target: InstallTarget;
  pausedAt: Date | null;
}

export async function batchInstalls(db: Db, installIds: readonly string[]): Promise<BatchInstall[]> {
  const { rows } = await db.query<TargetColumns & { deliveries_paused_at: Date | null }>(
    `select ${TARGET_COLUMNS}, i.deliveries_paused_at from installs i join apps a on a.id = i.app_id where i.id = any($1::text[])`,
    [[...installIds]]);
  return rows.map((row) => ({ target: targetFromRow(row), pausedAt: row.deliveries_paused_at }));
}

/** The outcome of one claimed delivery, as the loop records it. */
export interface OutcomeRow {
  id: string;
  lease: string;
  status: 'pending' | 'delivered' | 'paused' | 'dead' | 'cancelled';
  next_at: Date | null;
  /** 1 when no request was made (held, paused, cancelled): the claimed attempt is given back. */
  undo: 0 | 1;
  attempt: number;
  started_at: Date;
  duration_ms: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  /** The app's answer as kept (deliveries/pipeline/recorded-answer.ts), when it answered. */
  response?: string | null;
  response_truncated?: boolean;
}

/**
 * Applies outcomes (only where the lease still holds) and records the attempts that made a
 * request (always: they happened). Answers the ids whose outcome was applied.
 */
export async function recordOutcomes(db: Db, outcomes: readonly OutcomeRow[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const iso = (d: Date | null) => (d === null ? null : d.toISOString());
  const json = JSON.stringify(outcomes.map((o) => ({
    ...o, next_at: iso(o.next_at), started_at: iso(o.started_at), delivered_at: iso(o.delivered_at), record_attempt: o.undo === 0,
  })));
  const { rows } = await db.query<{ id: string }>(
    `with r as (
       select * from jsonb_to_recordset($1::jsonb) as r(id text, lease text, status text, next_at timestamptz, undo int, attempt int,
         started_at timestamptz, duration_ms int, last_status int, last_error text, delivered_at timestamptz, record_attempt boolean,
         response text, response_truncated boolean)
     ), applied as (
       update deliveries d
          set status = r.status, next_attempt_at = r.next_at, lease = null,
              attempts = d.attempts - r.undo, schedule_attempts = d.schedule_attempts - r.undo,
              last_status = case when r.record_attempt then r.last_status else d.last_status end,
              last_error = case when r.record_attempt then r.last_error else coalesce(r.last_error, d.last_error) end,
              delivered_at = coalesce(r.delivered_at, d.delivered_at)
         from r where d.id = r.id and d.lease = r.lease
       returning d.id
     ), attempts as (
       insert into delivery_attempts (delivery_id, attempt, started_at, duration_ms, status, error, response, response_truncated)
       select id, attempt, started_at, duration_ms, last_status, last_error, response, coalesce(response_truncated, false) from r where record_attempt
       on conflict (delivery_id, attempt) do update set duration_ms = excluded.duration_ms, status = excluded.status, error = excluded.error,
         response = excluded.response, response_truncated = excluded.response_truncated
     )
     select id from applied`,
    [json]);
  return new Set(rows.map((r) => r.id));
}

/**
 * Makes the install's waiting deliveries due at `at` (their retry schedule goes on): used when a
 * development relay connects, so what waited for it goes out at once. Answers how many.
 */
export async function dueNow(db: Db, installId: string, at: Date): Promise<number> {
  const { rowCount } = await db.query(
    `update deliveries set next_attempt_at = $2 where install_id = $1 and status = 'pending' and lease is null and next_attempt_at > $2`, [installId, at]);
  return rowCount;
}

/**
 * What waited for an install's development relay goes out at once (the relay just connected): its
 * waiting deliveries are due now, and every process's loops are told on commit.
 * @example await releaseWaiting(db, installId, new Date(clock.now())) // true when some were waiting
 */
export async function releaseWaiting(db: Db, installId: string, at: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const due = await dueNow(tx, installId, at);
    if (due > 0) await notifyWorkers(tx);
    return due > 0;
  });
}

/** Wakes the workers of every process when the transaction commits (a no-op without listeners). */
export async function notifyWorkers(db: Db): Promise<void> {
  await db.query(`select pg_notify(left('platform_outbox_' || current_schema(), 63), '')`);
}

/** The channel `notifyWorkers` and the 008 trigger notify on, for this database handle's schema. */
export async function workerChannel(db: Db): Promise<string> {
  const { rows } = await db.query<{ channel: string }>(`select left('platform_outbox_' || current_schema(), 63) as channel`);
  return rows[0]!.channel;
}
