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
import type { FailedAttempt } from '../../apps/errors/occurrences.ts';
import { recordInteractiveDelivery, recordInteractiveDeliveries, type InteractiveRecord } from './store.ts';

export interface DeliveryRecorder {
  record(record: InteractiveRecord): void;
  /** Writes everything queued now. */
  flush(): Promise<void>;
}

/**
 * @example
 * const recorder = createDeliveryRecorder({ db, logger });
 * recorder.record({ id, appId, installId, type: 'block.action', startedAt, durationMs: 3, status: 200, error: null });
 * await recorder.flush(); // before stopping
 */
/** Told of each batch's failed deliveries once they are written (the error groups). */
export interface FailedDeliveriesListener {
  recordAttempts(attempts: readonly FailedAttempt[]): Promise<void>;
}

const failedAttempts = (batch: readonly InteractiveRecord[]): FailedAttempt[] => batch.flatMap((r) => (r.error === null ? [] : [{
  appId: r.appId, installId: r.installId, deliveryId: r.id, type: r.type, version: r.version ?? null, status: r.status, error: r.error, at: r.startedAt,
}]));

export function createDeliveryRecorder(deps: { db: Db; logger: Logger; flushMs?: number; maxBatch?: number; errors?: FailedDeliveriesListener }): DeliveryRecorder {
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
      await recordInteractiveDeliveries(deps.db, batch);
    } catch (err) {
      deps.logger.debug({ err, size: batch.length }, 'interactive delivery batch refused; recording one by one');
      for (const r of batch) await writeOne(r);
    }
    const failed = failedAttempts(batch);
    if (failed.length > 0) await deps.errors?.recordAttempts(failed);
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
