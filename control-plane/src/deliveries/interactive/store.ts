/**
 * @module deliveries/interactive/store
 * SQL of the interactive deliveries' records (table `deliveries`, class `interactive`, each with its
 * one attempt in `delivery_attempts`), read back by the Deliveries page (deliveries/page/store.ts).
 */
import type { Db } from '../../core/db/db.ts';
import type { RecordedAnswer } from '../pipeline/recorded-answer.ts';
import type { RecordedRequest } from './request-record.ts';

export interface InteractiveRecord {
  id: string;
  appId: string;
  installId: string;
  type: string;
  startedAt: Date;
  durationMs: number;
  /** The app's HTTP status, if it answered. */
  status: number | null;
  /** Why the delivery failed (null when it succeeded). */
  error: string | null;
  /** The version the install ran (the error groups count failures per version). */
  version?: number;
  /** The request as kept for the page and replays (null: over the cap). */
  request?: RecordedRequest | null;
  /** The app's answer as kept (null: it did not answer). */
  response?: RecordedAnswer | null;
}

/**
 * Records an interactive delivery (never retried) with its one attempt, for the Deliveries page.
 * @example await recordInteractiveDelivery(db, { id, appId, installId, type: 'block.action', startedAt, durationMs: 42, status: 200, error: null });
 */
export async function recordInteractiveDelivery(db: Db, r: InteractiveRecord): Promise<void> {
  const ok = r.error === null;
  await db.query(
    `with d as (
       insert into deliveries (id, app_id, install_id, class, type, status, attempts, schedule_attempts, last_attempt_at, last_status, last_error, delivered_at, created_at, request)
       values ($1, $2, $3, 'interactive', $4, $5, 1, 1, $6, $7, $8, $9, $6, $11) returning id
     )
     insert into delivery_attempts (delivery_id, attempt, started_at, duration_ms, status, error, response, response_truncated)
     select id, 1, $6, $10, $7, $8, $12, $13 from d`,
    [r.id, r.appId, r.installId, r.type, ok ? 'delivered' : 'failed', r.startedAt, r.status, r.error, ok ? new Date(r.startedAt.getTime() + r.durationMs) : null, Math.round(r.durationMs),
      r.request == null ? null : JSON.stringify(r.request), r.response?.text ?? null, r.response?.truncated ?? false]);
}

/**
 * One statement for a batch: the deliveries and their first (only) attempts. It is a log, not
 * state: its commit need not wait for the disk (a crash of the database loses at most the last
 * moments of records, never consistency), so the statement turns `synchronous_commit` off for its
 * own implicit transaction (`set_config(…, true)` lasts until that commit) instead of opening a
 * transaction around it, which would cost three more round trips.
 */
export async function recordInteractiveDeliveries(db: Db, records: readonly InteractiveRecord[]): Promise<void> {
  const ok = records.map((r) => r.error === null);
  await db.query(
    `with log as (select set_config('synchronous_commit', 'off', true)),
     d as (
       insert into deliveries (id, app_id, install_id, class, type, status, attempts, schedule_attempts, last_attempt_at, last_status, last_error, delivered_at, created_at, request)
       select t.id, t.app, t.ins, 'interactive', t.typ, t.st, 1, 1, t.started, t.code, t.err, t.done, t.started, t.req
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::int[], $8::text[], $9::timestamptz[], $11::jsonb[])
           as t(id, app, ins, typ, st, started, code, err, done, req)
       returning id, last_attempt_at, last_status, last_error
     )
     insert into delivery_attempts (delivery_id, attempt, started_at, duration_ms, status, error, response, response_truncated)
     select d.id, 1, d.last_attempt_at, t.dur, d.last_status, d.last_error, t.res, t.cut
       from d join unnest($1::text[], $10::int[], $12::text[], $13::boolean[]) as t(id, dur, res, cut) on t.id = d.id cross join log`,
    [
      records.map((r) => r.id), records.map((r) => r.appId), records.map((r) => r.installId), records.map((r) => r.type),
      ok.map((yes) => (yes ? 'delivered' : 'failed')), records.map((r) => r.startedAt), records.map((r) => r.status),
      records.map((r) => r.error), records.map((r, i) => (ok[i] ? new Date(r.startedAt.getTime() + r.durationMs) : null)),
      records.map((r) => Math.round(r.durationMs)),
      records.map((r) => (r.request == null ? null : JSON.stringify(r.request))), records.map((r) => r.response?.text ?? null),
      records.map((r) => r.response?.truncated ?? false),
    ]);
}
