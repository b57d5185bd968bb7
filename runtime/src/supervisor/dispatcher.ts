/**
 * @module supervisor/dispatcher
 * Moves requests: into the scheduler's admission, onto a worker (with the version spec the worker
 * has not seen yet), back again when the worker died before entering them, and out when they end.
 * A request waits here, never in a worker's queue, while its app may not run another one or no
 * worker is ready; the sweep fails those past their deadline.
 */
import { PlatformError } from '@platform/sdk';
import type { ManifestJob, RunJob, RunReport, VersionSpec } from '../protocol/messages.ts';
import { abortEgress } from './egress-relay.ts';
import { EMPTY_REPORT, type Pending, type RunResult } from './pending.ts';
import type { Quarantine } from './quarantine.ts';
import type { Scheduler } from './scheduler.ts';
import { WORKER_MAX_VERSIONS, type WorkerRef, type WorkerSet } from './workers.ts';

/** Sends `spec` to `w` unless it has it (specs cross once per worker: runs/specs.ts). */
export function sendVersion(w: WorkerRef, spec: VersionSpec): void {
  if (w.versions.has(spec.vid)) return;
  w.handle.send({ t: 'version', spec });
  w.versions.add(spec.vid);
  if (w.versions.size > WORKER_MAX_VERSIONS) w.versions.delete(w.versions.values().next().value as number);
}

export function createDispatcher(deps: { scheduler: Scheduler; quarantine: Quarantine; workers: () => WorkerSet }) {
  const { scheduler, quarantine } = deps;
  /** Requests not on a worker: waiting for their app's turn or for a ready worker. */
  const queued = new Set<Pending>();
  /** Requests that found no worker ready (all restarting): placed when one is. */
  const unplaced: Pending[] = [];
  let stopping = false;

  const answer = (p: Pending, result: RunResult): void => {
    if (p.state === 'answered' || p.state === 'done') return;
    p.state = 'answered';
    p.answer(result);
  };

  /** Ends a request that is not (or no longer) on a worker. */
  const abandon = (p: Pending, error: PlatformError, report: RunReport): void => {
    queued.delete(p);
    const i = unplaced.indexOf(p);
    if (i !== -1) unplaced.splice(i, 1);
    answer(p, { kind: 'error', error, report });
    p.state = 'done';
    p.finish(report, error, null);
  };

  const dispatchTo = (w: WorkerRef, p: Pending): void => {
    queued.delete(p);
    p.state = 'dispatched';
    p.attempts++;
    (p.job as { seq: number }).seq = ++w.seq;
    sendVersion(w, p.spec);
    w.jobs.set(p.job.id, p);
    w.queuedMs += p.costMs;
    if (p.type === 'run') w.handle.send({ t: 'run', job: p.job as RunJob }, p.body);
    else w.handle.send({ t: 'manifest', job: p.job as ManifestJob });
  };

  const place = (p: Pending): void => {
    if (p.state === 'done') return scheduler.done(p.meta.appId, null);
    const w = scheduler.place(p.meta.appId, p.spec.key, deps.workers().ready());
    if (w !== null) return dispatchTo(w, p);
    if (stopping) return abandon(p, new PlatformError('PlatformApiServiceUnavailableError', 'The runtime node is stopping'), EMPTY_REPORT('crashed'));
    unplaced.push(p);
  };

  const submit = (p: Pending): void => {
    p.state = 'queued';
    queued.add(p);
    p.costMs = scheduler.costOf(p.meta.appId);
    if (quarantine.holds(p.spec.key)) return dispatchTo(deps.workers().quarantine(), p);
    // Already admitted once: it is running again after its worker died.
    if (p.attempts > 0) return place(p);
    scheduler.admit(p.meta.appId, Math.max(1, deps.workers().ready().length), () => place(p));
  };

  return {
    submit,
    answer,
    abandon,
    /** Takes a request off its worker (it ended there, or the worker died). */
    release(w: WorkerRef, p: Pending): void {
      w.jobs.delete(p.job.id);
      w.queuedMs = Math.max(0, w.queuedMs - p.costMs);
      abortEgress(p);
    },
    /** A request ended on its worker with this report (and error, and manifest JSON). */
    finish(p: Pending, report: RunReport, error: PlatformError | null, body: Buffer | null): void {
      p.state = 'done';
      scheduler.done(p.meta.appId, report.cpuMs);
      p.finish(report, error, body);
    },
    /** A worker became ready: requests that found none go to it. */
    workerReady(): void {
      for (const p of unplaced.splice(0)) place(p);
    },
    /** Fails requests that waited here past their deadline. */
    sweep(now: number): void {
      for (const p of queued) {
        if (now <= p.deadlineAt) continue;
        if (unplaced.includes(p)) scheduler.done(p.meta.appId, null);
        abandon(p, new PlatformError('PlatformRuntimeDeadlineError', 'The request waited for a sandbox worker past its deadline', { fields: { deadlineMs: p.job.deadlineMs } }), EMPTY_REPORT('deadline'));
      }
    },
    waiting(): number {
      return queued.size;
    },
    stop(): void {
      stopping = true;
      unplaced.length = 0;
      for (const p of [...queued]) abandon(p, new PlatformError('PlatformApiServiceUnavailableError', 'The runtime node is stopping'), EMPTY_REPORT('crashed'));
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
