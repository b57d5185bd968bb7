/**
 * @module supervisor/deaths
 * What the supervisor does when a worker died: crash.ts decides which of its requests fail and which
 * run again; the culprit's version goes to quarantine, and its author reads why in the app log.
 */
import { PlatformError } from '@platform/sdk';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.ts';
import { judgeCrash } from './crash.ts';
import type { Dispatcher } from './dispatcher.ts';
import { EMPTY_REPORT, toPlatformError, type Pending } from './pending.ts';
import type { Quarantine } from './quarantine.ts';
import type { Reports } from './reports.ts';
import type { Scheduler } from './scheduler.ts';
import type { WorkerRef } from './workers.ts';

/** Times a request runs again after workers died before entering it. */
const MAX_ATTEMPTS = 3;

const WHY = { memory: 'ran out of memory', unstoppable: 'kept computing after its CPU budget ran out', hung: 'did not end past its deadline', crash: 'crashed' } as const;

export interface DeathDeps {
  dispatcher: Dispatcher;
  scheduler: Scheduler;
  quarantine: Quarantine;
  reports: Reports;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
  stopping: () => boolean;
  /** Starts the quarantine worker now, so the culprit's next request does not wait for a process start. */
  startQuarantine: () => void;
  /** The local request (hand-off) the dead worker was running, when its journal names one. */
  localCulprit?: (w: WorkerRef) => Pending | null;
}

/** Returns the culprit put in quarantine, if any. */
export function handleDeath(deps: DeathDeps, w: WorkerRef, code: number | null, signal: NodeJS.Signals | null): Pending | null {
  const { dispatcher, scheduler } = deps;
  const stopping = deps.stopping();
  const verdict = judgeCrash(w.jobs.values(), w.handle.journal(), w.killedFor, w.handle.cause);
  if (!stopping) {
    deps.metrics.workerRestarts.inc({ reason: verdict.reason });
    deps.logger.warn({ worker: w.name, pid: w.handle.pid, code, signal, reason: verdict.reason, failed: verdict.fail.length, retried: verdict.retry.length }, 'sandbox worker ended; replacing it');
  }
  for (const { pending: p, error, outcome } of verdict.fail) {
    dispatcher.release(w, p);
    scheduler.done(p.meta.appId, null);
    dispatcher.abandon(p, toPlatformError(error), EMPTY_REPORT(outcome, error.message, deps.now()));
  }
  for (const p of verdict.retry) {
    dispatcher.release(w, p);
    if (stopping || p.attempts >= MAX_ATTEMPTS) {
      scheduler.done(p.meta.appId, null);
      dispatcher.abandon(p, new PlatformError('PlatformRuntimeCrashedError', 'The sandbox workers running this request kept ending'), EMPTY_REPORT('crashed'));
    } else {
      deps.metrics.retriedRequests.inc();
      dispatcher.submit(p);
    }
  }
  const culprit = verdict.culprit ?? deps.localCulprit?.(w) ?? null;
  if (culprit === null || stopping) return null;
  const { offences, ms } = deps.quarantine.offend(culprit.spec.key);
  deps.metrics.quarantines.inc({ app: culprit.meta.appId });
  // Now, not at the next sweep: a scrape right after the offence sees it.
  deps.metrics.quarantinedVersions.set(deps.quarantine.count());
  deps.startQuarantine();
  deps.logger.warn({ app: culprit.meta.appId, version: culprit.meta.version, key: culprit.spec.key, offences, minutes: ms / 60_000 }, 'app version quarantined');
  deps.reports.note(culprit, 'limit',
    `This version ${WHY[verdict.reason]} and took its sandbox worker down; it runs on the quarantine worker for the next ${Math.round(ms / 60_000)} minutes (offence ${offences}).`);
  return culprit;
}
