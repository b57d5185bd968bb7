/**
 * @module apps/usage/loop
 * The periodic work of usage, on the injected clock: each minute, sample every storage space's
 * bytes (the gauge); once an hour, prune minute rows past 24 hours, hour rows past 90 days and flush keys past 24 hours
 * (a minute of slack each, so a window at the retention's edge is still whole). Every control
 * plane runs it: two samples in one minute set the same value, and deletes of the same rows wait
 * for each other. It starts and stops the control plane's own recorder (apps/usage/recorder.ts)
 * too, so its last counts are written on stop.
 */
import type { Clock } from '../../core/clock/clock.ts';
import { createPeriodicTask } from '../../core/clock/periodic-task.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { bucketOf, STEP_MS } from './counters.ts';
import type { UsageRecorder } from './recorder.ts';
import { pruneUsage, sampleStorage } from './store.ts';
import { USAGE_RETENTION_MS } from './window.ts';

export interface UsageLoop {
  /** One minute's work: the storage sample, and the pruning when an hour began since the last. */
  tick(): Promise<{ sampled: number; pruned: number | null }>;
  start(): void;
  stop(): Promise<void>;
}

export function createUsageLoop(deps: { db: Db; clock: Clock; recorder: UsageRecorder; logger: Logger; intervalMs?: number }): UsageLoop {
  let prunedHour = -1;

  const tick = async (): Promise<{ sampled: number; pruned: number | null }> => {
    const now = deps.clock.now();
    const sampled = await sampleStorage(deps.db, now);
    let pruned: number | null = null;
    const hour = bucketOf(now, 'hour');
    if (hour !== prunedHour) {
      prunedHour = hour;
      const slack = STEP_MS.minute;
      pruned = await pruneUsage(deps.db, {
        minutesBefore: new Date(now - USAGE_RETENTION_MS.minute - slack),
        hoursBefore: new Date(now - USAGE_RETENTION_MS.hour - STEP_MS.hour),
        keysBefore: new Date(now - USAGE_RETENTION_MS.minute - slack),
      });
    }
    return { sampled, pruned };
  };

  const loop = createPeriodicTask({
    intervalMs: deps.intervalMs ?? STEP_MS.minute,
    run: tick,
    onError: (err) => deps.logger.warn({ err }, 'The usage tick failed; the next one retries'),
  });
  return {
    tick,
    start() {
      deps.recorder.start();
      loop.start();
    },
    async stop() {
      await loop.stop();
      await deps.recorder.stop();
    },
  };
}
