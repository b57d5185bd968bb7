/**
 * @module sandbox/request-context
 * What one request in a worker holds besides its state (request-state.ts): its job and version,
 * its CPU account, and the resources made for it (the deadline timer, the log buffer, timers and
 * fetches), each made when first needed since most requests log nothing and wait on nothing. One
 * record per request, passed to the runner's functions (request-run.ts, request-guest.ts,
 * request-end.ts) instead of variables shared by closures.
 */
import type { FromWorker, Outcome, RunJob, RunReport, VersionSpec } from '../protocol/messages.ts';
import type { Journal } from '../protocol/journal.ts';
import type { Background } from './background.ts';
import type { SlotHandler } from './host-bridge.ts';
import { createLogBuffer, type LogBuffer } from './log-buffer.ts';
import type { Pool } from './pool.ts';
import type { RequestIo } from './request-io.ts';
import type { StateHolder } from './request-state.ts';
import type { CpuAccount } from './slice.ts';
import type { Slot } from './slot.ts';

export interface RunDeps {
  pool: Pool;
  background: Background;
  blank: () => Slot;
  journal: Journal;
  startupCpuMs: number;
  send: (msg: FromWorker, body?: Buffer | string | null, encoding?: 'utf8' | 'latin1') => void;
  now: () => number;
}

export interface RequestContext extends StateHolder {
  readonly deps: RunDeps;
  readonly spec: VersionSpec;
  readonly job: RunJob;
  readonly body: string | null;
  readonly bodyKind: 'text' | 'latin1';
  readonly onEnd: () => void;
  readonly started: number;
  readonly deadlineAt: number;
  readonly account: CpuAccount;
  coldStartMs: number | null;
  /** The wall deadline: armed while queued on a full pool, or once the request waits on I/O. */
  deadline: ReturnType<typeof setTimeout> | null;
  logBuffer: LogBuffer | null;
  requestIo: RequestIo | null;
  /** The slot handler of this request (one per request, given to whichever slot serves it). */
  handler: SlotHandler;
}

const UNSET: SlotHandler = { get scope(): never { throw new Error('request handler not set'); }, core() {}, charge() {} };

export function requestContext(deps: RunDeps, spec: VersionSpec, job: RunJob, body: string | null, bodyKind: 'text' | 'latin1', onEnd: () => void,
  handlerFor: (run: RequestContext) => SlotHandler): RequestContext {
  const started = deps.now();
  const run: RequestContext = {
    deps, spec, job, body, bodyKind, onEnd, started, deadlineAt: started + job.deadlineMs,
    account: { usedNs: 0, limitNs: job.cpuBudgetMs * 1e6 },
    state: { phase: 'waiting', stopWaiting: null },
    coldStartMs: null, deadline: null, logBuffer: null, requestIo: null, handler: UNSET,
  };
  run.handler = handlerFor(run);
  return run;
}

export function logs(run: RequestContext): LogBuffer {
  return (run.logBuffer ??= createLogBuffer(run.spec.redact, run.deps.now, run.spec.sourceMapPath));
}

export function report(run: RequestContext, outcome: Outcome): RunReport {
  return {
    outcome, cpuMs: Math.round(run.account.usedNs / 1000) / 1000, wallMs: run.deps.now() - run.started, coldStartMs: run.coldStartMs,
    ...(run.logBuffer === null ? { logs: [], droppedLogs: 0 } : run.logBuffer.take()),
  };
}
