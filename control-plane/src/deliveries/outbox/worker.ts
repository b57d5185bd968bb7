/**
 * @module deliveries/outbox/worker
 * The lifecycle delivery loop. Each pass claims a batch of due deliveries, reads their installs
 * and apps in one statement, sends them through the delivery pipeline with bounded concurrency
 * (deliveries/outbox/attempt.ts), records every outcome and attempt in one statement, then applies
 * what the outcomes mean for each install (pauses, the failure streak). A full batch goes straight
 * on to the next; otherwise the loop waits for a wake or the poll interval.
 *
 * Several loops, in one process or many, share the table: claims skip rows other workers hold.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { DeliveryPipeline } from '../pipeline/pipeline.ts';
import { attemptDelivery } from './attempt.ts';
import type { DeliveryHealth } from './health.ts';
import type { OutboxMetrics } from './metrics.ts';
import { batchInstalls, claimDue, recordOutcomes, type BatchInstall, type ClaimedRow, type OutcomeRow } from './store.ts';
import type { FailedAttempt } from '../../apps/errors/occurrences.ts';
import type { Waker } from './waker.ts';
import type { FailedDeliveriesListener } from '../interactive/recorder.ts';

export interface WorkerSettings {
  batchSize: number;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
}

export interface OutboxWorkerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  pipeline: DeliveryPipeline;
  health: DeliveryHealth;
  waker: Waker;
  metrics?: OutboxMetrics;
  settings: WorkerSettings;
  random?: () => number;
  /** Told of the failed attempts of each batch once they are recorded (the error groups). */
  errors?: FailedDeliveriesListener;
}

export interface OutboxWorker {
  /** One pass: claims at most one batch and delivers it; answers how many deliveries it claimed. */
  runOnce(): Promise<number>;
  /** Passes until nothing is due (tests, with the manual clock). */
  drain(): Promise<number>;
  /** Starts `loops` loops. */
  start(loops: number): void;
  /** Stops the loops after their current pass. */
  stop(): Promise<void>;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

/** Attempts that were made and did not deliver (held, paused and cancelled ones made no request). */
function failedAttempts(batch: readonly ClaimedRow[], outcomes: readonly OutcomeRow[], installs: ReadonlyMap<string, BatchInstall>): FailedAttempt[] {
  return outcomes.flatMap((o, i) => {
    const d = batch[i]!;
    if (o.undo === 1 || o.status === 'delivered' || o.last_error === null) return [];
    return [{ appId: d.app_id, installId: d.install_id, deliveryId: d.id, type: d.type, version: installs.get(d.install_id)?.target.version ?? null, status: o.last_status, error: o.last_error, at: o.started_at }];
  });
}

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { db, clock, settings } = deps;
  let running = false;
  let loops: Promise<void>[] = [];

  async function deliver(batch: ClaimedRow[], lease: string): Promise<void> {
    const installs = new Map<string, BatchInstall>();
    for (const install of await batchInstalls(db, [...new Set(batch.map((d) => d.install_id))])) installs.set(install.target.installId, install);
    const results = await mapLimit(batch, settings.concurrency, async (d) => {
      try {
        return await attemptDelivery(d, installs.get(d.install_id), lease, { clock, pipeline: deps.pipeline, ...(deps.random ? { random: deps.random } : {}) });
      } catch (err) {
        // Our own fault (a secret that does not open, say): retried like a failed attempt, so
        // the delivery is never lost, and logged loudly.
        deps.logger.error({ err, deliveryId: d.id }, 'lifecycle delivery could not be prepared');
        const now = new Date(clock.now());
        return {
          outcome: {
            id: d.id, lease, status: 'pending' as const, next_at: new Date(now.getTime() + settings.leaseMs), undo: 0 as const, attempt: d.attempts,
            started_at: now, duration_ms: 0, last_status: null, last_error: 'The service could not prepare the delivery', delivered_at: null,
          },
          summary: null,
        };
      }
    });
    await recordOutcomes(db, results.map((r) => r.outcome));
    results.forEach((r, i) => {
      const slug = installs.get(batch[i]!.install_id)?.target.app.slug ?? null;
      deps.metrics?.attempt(r.outcome.undo === 1 ? 'skipped' : r.outcome.status, r.outcome.duration_ms, slug);
    });
    await deps.health.apply(results.flatMap((r) => (r.summary === null ? [] : [r.summary])));
    const failed = failedAttempts(batch, results.map((r) => r.outcome), installs);
    if (failed.length > 0) await deps.errors?.recordAttempts(failed);
  }

  async function runOnce(): Promise<number> {
    const now = clock.now();
    const lease = randomBytes(12).toString('base64url');
    const batch = await claimDue(db, { now: new Date(now), limit: settings.batchSize, lease, leaseUntil: new Date(now + settings.leaseMs) });
    if (batch.length > 0) await deliver(batch, lease);
    return batch.length;
  }

  async function loop(): Promise<void> {
    while (running) {
      let claimed = 0;
      try {
        claimed = await runOnce();
      } catch (err) {
        deps.logger.error({ err }, 'lifecycle delivery pass failed');
      }
      if (running && claimed < settings.batchSize) await deps.waker.wait(settings.pollMs);
    }
  }

  return {
    runOnce,
    async drain() {
      let total = 0;
      for (let n = await runOnce(); n > 0; n = await runOnce()) total += n;
      return total;
    },
    start(count) {
      if (running) return;
      running = true;
      loops = Array.from({ length: count }, () => loop());
    },
    async stop() {
      running = false;
      deps.waker.wake();
      await Promise.all(loops);
      loops = [];
    },
  };
}
