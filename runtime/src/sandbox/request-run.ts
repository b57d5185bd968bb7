/**
 * @module sandbox/request-run
 * One request in a worker: get a slot (warm, cold-started, or the next one released), enter the
 * guest synchronously, feed it timer and fetch results as further entries, and end it exactly
 * once: answered and settled, failed, over its CPU budget (the isolate is disposed: its state is
 * unknown), out of memory, or past its wall deadline. The response may leave before the end when
 * `ctx.waitUntil` work continues. The states and the moves between them: request-state.ts; what a
 * request holds: request-context.ts; the guest's reports: request-guest.ts; the end: request-end.ts.
 *
 * A job marked `profile` runs under isolated-vm's CPU profiler (profile.ts); when it is stopped at
 * its CPU budget, the profile is collected before the request ends and sent ahead of its end. Its
 * isolate is disposed afterwards whatever the outcome, so no later request pays for profiling.
 */
import type { RunError, RunJob, VersionSpec } from '../protocol/messages.ts';
import type { RawError } from '../stacks/map.ts';
import { coldStart, StartupError } from './cold-start.ts';
import { startRequestProfiler, type RequestProfiler } from './profile.ts';
import { logs, requestContext, type RequestContext, type RunDeps } from './request-context.ts';
import { endRequest, sendResponse } from './request-end.ts';
import { guestHandler } from './request-guest.ts';
import { createRequestIo, type RequestIo } from './request-io.ts';
import { activeState, guestError, limitError, nextStep, transition, type LimitOutcome } from './request-state.ts';
import { stoppedAt, versionStacks } from './stacks.ts';
import { runSlice, type SliceResult } from './slice.ts';
import type { Slot } from './slot.ts';

export type { RunDeps } from './request-context.ts';

export interface RunningRequest {
  egressResult(opId: number, ok: boolean, value: unknown): void;
}

export function runRequest(deps: RunDeps, spec: VersionSpec, job: RunJob, body: string | null, bodyKind: 'text' | 'latin1', onEnd: () => void): RunningRequest {
  const run = requestContext(deps, spec, job, body, bodyKind, onEnd, (r) => guestHandler(r, () => io(r)));
  acquire(run);
  return {
    egressResult(opId, ok, value) {
      if (run.requestIo === null || !run.requestIo.settleFetch(opId) || run.state.phase !== 'active') return;
      enter(run, run.state.slot, (slot) => slot.deliver(opId, ok, value));
    },
  };
}

function io(run: RequestContext): RequestIo {
  return (run.requestIo ??= createRequestIo({
    requestId: run.job.id, deadlineAt: run.deadlineAt, logs: logs(run), send: run.deps.send, now: run.deps.now,
    active: () => run.state.phase === 'active',
    fire: (opId) => { if (run.state.phase === 'active') enter(run, run.state.slot, (slot) => slot.deliver(opId, true, null)); },
  }));
}

/** Takes a warm slot, cold-starts one, or waits on the version's full pool (the deadline applies). */
function acquire(run: RequestContext): void {
  const { deps, spec, job } = run;
  if (run.state.phase !== 'waiting') return;
  const taken = deps.pool.take(spec.key);
  if (taken === 'full') return waitForSlot(run);
  if (taken !== 'start') return begin(run, taken);
  let slot: Slot;
  try {
    slot = coldStart({ background: deps.background, blank: deps.blank, startupCpuMs: deps.startupCpuMs }, spec, run.handler, () => deps.journal.enter(job.seq));
  } catch (err) {
    deps.pool.abandon(spec.key);
    return startupFailed(run, err);
  }
  run.coldStartMs = deps.now() - run.started;
  begin(run, slot);
}

function waitForSlot(run: RequestContext): void {
  const { deps, spec, job } = run;
  const waiting = run.state;
  if (waiting.phase !== 'waiting') return;
  if (run.deadline === null) run.deadline = setTimeout(() => endRequest(run, 'deadline', limitError('deadline', job), null), job.deadlineMs);
  waiting.stopWaiting = deps.pool.wait(spec.key, (slot) => {
    waiting.stopWaiting = null;
    if (slot === null) return acquire(run);
    if (run.state.phase !== 'waiting') return deps.pool.release(spec.key, slot);
    begin(run, slot);
  });
}

function begin(run: RequestContext, slot: Slot): void {
  const { job, spec } = run;
  slot.handler = run.handler;
  transition(run, activeState(slot, job.profile === true ? startProfiler(run, slot) : null));
  enter(run, slot, (s) => s.dispatch({ method: job.method, url: job.url, headers: job.headers, body: run.body, bodyKind: run.bodyKind, kind: job.kind, requestId: job.id, deliveryId: job.deliveryId, envId: spec.vid, env: spec.env }));
}

function startProfiler(run: RequestContext, slot: Slot): RequestProfiler | null {
  try {
    return startRequestProfiler(slot.isolate, run.job.id, () => slot.emptyEntry());
  } catch (err) {
    // The request runs unprofiled (its isolate is still disposed at the end: the profiler may be open).
    run.deps.send({ t: 'log', level: 'warn', message: 'starting the CPU profiler failed', error: err instanceof Error ? err.message : String(err) });
    return null;
  }
}

function enter(run: RequestContext, slot: Slot, call: (slot: Slot) => void): void {
  const state = run.state;
  if (state.phase !== 'active') return;
  // The profiler's own cost on this entry is not the guest's to pay, nor to be reported as the
  // guest's: it is taken off the account (the slice's limit rises by as much), so the budget and
  // the report's `cpuMs` count the guest's CPU, as for an unprofiled request.
  if (state.profiler !== null) run.account.usedNs -= state.profiler.entryCostNs;
  run.deps.journal.enter(run.job.seq);
  afterSlice(run, runSlice(slot.isolate, run.account, () => call(slot)));
}

function afterSlice(run: RequestContext, result: SliceResult): void {
  const { job } = run;
  const state = run.state;
  if (state.phase !== 'active') return;
  switch (result.kind) {
    case 'cpu': return stop(run, 'cpu_limit', `The request used more than its ${job.cpuBudgetMs} ms CPU budget and was stopped.`, stoppedAt(result.stack, job.cpuBudgetMs));
    case 'memory': return stop(run, 'memory_limit', 'The app ran out of memory (isolate heap limit) and its isolate was replaced.');
    case 'disposed':
    case 'error':
      logs(run).add('error', 'The platform could not enter the app');
      if (result.kind === 'error') run.deps.send({ t: 'log', level: 'error', message: 'entering an isolate failed', error: result.message });
      return endRequest(run, 'error', guestError('The platform could not run the app'), 'evicted');
    case 'ok': break;
  }
  const next = nextStep(state);
  if (next.step === 'end') return endRequest(run, next.outcome, next.error, null);
  if (next.step === 'send-response') {
    state.responseSent = true;
    const r = state.response!;
    sendResponse(run, r.head, r.body, r.encoding, null);
  }
  // Waiting for timers, fetches or waitUntil work: the wall deadline now applies.
  if (run.deadline === null) run.deadline = setTimeout(() => stop(run, 'deadline', `The request ran past its ${job.deadlineMs} ms deadline and was stopped.`), Math.max(0, run.deadlineAt - run.deps.now()));
}

/** Stops a request over a limit: its isolate is disposed (its state is unknown). */
function stop(run: RequestContext, outcome: LimitOutcome, note: string, where: RawError | null = null): void {
  const state = run.state;
  if (state.phase === 'collecting' || state.phase === 'ended') return;
  logs(run).addLimit(note, where);
  const answered = state.phase === 'active' && state.responseSent;
  // Past the deadline after the response left, the request itself succeeded.
  const finish = () => endRequest(run, outcome === 'deadline' && answered ? 'ok' : outcome, limitError(outcome, run.job), outcome === 'cpu_limit' ? 'cpu' : outcome === 'deadline' ? 'deadline' : null);
  if (outcome !== 'cpu_limit' || state.phase !== 'active' || state.profiler === null) return finish();
  const collecting = state.profiler;
  transition(run, { phase: 'collecting', slot: state.slot, responseSent: state.responseSent });
  void collecting.collect(versionStacks(run.spec.sourceMapPath).callFrame).then((json) => {
    if (json !== null) run.deps.send({ t: 'profile', id: run.job.id }, json, 'utf8');
    finish();
  });
}

function startupFailed(run: RequestContext, err: unknown): void {
  const { deps } = run;
  if (!(err instanceof StartupError)) {
    deps.send({ t: 'log', level: 'error', message: 'starting an isolate failed', error: err instanceof Error ? err.stack ?? err.message : String(err) });
    return endRequest(run, 'error', guestError('The platform could not start the app'), null);
  }
  if (err.kind === 'cpu') logs(run).addLimit(`Starting the bundle used more than ${deps.startupCpuMs} ms of CPU and was stopped.`, stoppedAt(err.guestStack, deps.startupCpuMs));
  else logs(run).add('error', err.message, err.thrown);
  const error: RunError = err.kind === 'cpu' ? { tag: 'PlatformRuntimeCpuLimitError', message: err.message, fields: { limitMs: deps.startupCpuMs } }
    : err.kind === 'memory' ? limitError('memory_limit', run.job) : { tag: 'PlatformAppBundleInvalidError', message: err.message };
  endRequest(run, err.kind === 'cpu' ? 'cpu_limit' : err.kind === 'memory' ? 'memory_limit' : 'error', error, null);
}
