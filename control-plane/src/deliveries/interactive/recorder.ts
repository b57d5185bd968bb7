/**
 * @module deliveries/interactive/recorder
 * Every interactive delivery is recorded for the app's Deliveries page (table `deliveries`, class
 * `interactive`, with its one attempt in `delivery_attempts`). A member waits on the delivery, not
 * on its record, so records are written after the answer, in batches: one statement for up to
 * `maxBatch` records, at most `flushMs` after the first one queued. A batch the database refuses
 * (say an install deleted meanwhile) is written again one record at a time, so one bad record loses
 * nothing but itself. Records still queued when a process dies are lost: the page is a log, not
 * the truth about the block.
 */
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { recordInteractiveDelivery, type InteractiveRecord } from '../page/store.ts';

export interface DeliveryRecorder {
  record(record: InteractiveRecord): void;
  /** Writes everything queued now. */
  flush(): Promise<void>;
}

/**
 * One statement for a batch: the deliveries and their first (only) attempts. It is a log, not
 * state: its commit need not wait for the disk (a crash of the database loses at most the last
 * moments of records, never consistency), so the statement turns `synchronous_commit` off for its
 * own implicit transaction (`set_config(…, true)` lasts until that commit) instead of opening a
 * transaction around it, which would cost three more round trips.
 */
async function writeBatch(db: Db, records: readonly InteractiveRecord[]): Promise<void> {
  const ok = records.map((r) => r.error === null);
  await db.query(
    `with log as (select set_config('synchronous_commit', 'off', true)),
     d as (
       insert into deliveries (id, app_id, install_id, class, type, status, attempts, schedule_attempts, last_attempt_at, last_status, last_error, delivered_at, created_at)
       select t.id, t.app, t.ins, 'interactive', t.typ, t.st, 1, 1, t.started, t.code, t.err, t.done, t.started
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::int[], $8::text[], $9::timestamptz[])
           as t(id, app, ins, typ, st, started, code, err, done)
       returning id, last_attempt_at, last_status, last_error
     )
     insert into delivery_attempts (delivery_id, attempt, started_at, duration_ms, status, error)
     select d.id, 1, d.last_attempt_at, t.dur, d.last_status, d.last_error
       from d join unnest($1::text[], $10::int[]) as t(id, dur) on t.id = d.id cross join log`,
    [
      records.map((r) => r.id), records.map((r) => r.appId), records.map((r) => r.installId), records.map((r) => r.type),
      ok.map((yes) => (yes ? 'delivered' : 'failed')), records.map((r) => r.startedAt), records.map((r) => r.status),
      records.map((r) => r.error), records.map((r, i) => (ok[i] ? new Date(r.startedAt.getTime() + r.durationMs) : null)),
      records.map((r) => Math.round(r.durationMs)),
    ]);
}

/**
 * @example
 * const recorder = createDeliveryRecorder({ db, logger });
 * recorder.record({ id, appId, installId, type: 'block.action', startedAt, durationMs: 3, status: 200, error: null });
 * await recorder.flush(); // before stopping
 */
export function createDeliveryRecorder(deps: { db: Db; logger: Logger; flushMs?: number; maxBatch?: number }): DeliveryRecorder {
  const flushMs = deps.flushMs ?? 25;
  const maxBatch = deps.maxBatch ?? 500;
  let queue: InteractiveRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();

  const writeOne = async (r: InteractiveRecord) => {
    try {
      await recordInteractiveDelivery(deps.db, r);
    } catch (err) {
      deps.logger.warn({ err, deliveryId: r.id, type: r.type }, 'interactive delivery not recorded');
    }
  };

  const drain = async (batch: InteractiveRecord[]) => {
    try {
      await writeBatch(deps.db, batch);
    } catch (err) {
      deps.logger.debug({ err, size: batch.length }, 'interactive delivery batch refused; recording one by one');
      for (const r of batch) await writeOne(r);
    }
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (queue.length > 0) {
      const batch = queue;
      queue = [];
      // Batches are written one after another, so `flush()` resolves once everything before it is in.
      writing = writing.then(() => drain(batch));
    }
    return writing;
  };

  return {
    record(r) {
      queue.push(r);
      if (queue.length >= maxBatch) void flush();
      else if (timer === undefined) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref();
      }
    },
    flush,
  };
}
