/**
 * @module supervisor/sweep
 * Twice a second: requests waiting past their deadline fail, and a worker past its memory ceiling,
 * or one that holds a request far past its deadline (hung), is killed (and replaced: workers.ts).
 */
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { Quarantine } from './quarantine.ts';
import type { WorkerSet } from './workers.ts';

/** A request held past its deadline by this much is taken as a hung worker. */
const BACKSTOP_GRACE_MS = 5_000;

export function sweepWorkers(deps: { dispatcher: Dispatcher; workers: WorkerSet; quarantine: Quarantine; metrics: Metrics; logger: Logger; workerMaxRssMb: number }, t: number): void {
  const { dispatcher, workers, quarantine, metrics, logger } = deps;
  dispatcher.sweep(t);
  for (const w of workers.all()) {
    const rss = w.handle.rssBytes();
    if (rss !== null) {
      metrics.workerRss.set({ worker: w.name }, rss);
      if (rss > deps.workerMaxRssMb * 1024 * 1024) {
        logger.warn({ worker: w.name, rss }, 'sandbox worker passed its memory ceiling; killing it');
        workers.kill(w, 'memory');
      }
    }
    for (const p of w.jobs.values()) {
      if (t <= p.deadlineAt + BACKSTOP_GRACE_MS) continue;
      logger.error({ worker: w.name, requestId: p.job.id }, 'sandbox worker did not end a request after its deadline; killing it');
      workers.kill(w, 'hung');
      break;
    }
  }
  metrics.quarantinedVersions.set(quarantine.count());
}
