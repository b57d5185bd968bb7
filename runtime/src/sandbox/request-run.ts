/**
 * @module sandbox/request-run
 * One request in a worker: get a slot (warm, cold-started, or the next one released), enter the
 * guest synchronously, feed it timer and fetch results as further entries, and end it exactly
 * once: answered and settled, failed, over its CPU budget (the isolate is disposed: its state is
 * unknown), out of memory, or past its wall deadline. The response may leave before the end when
 * `ctx.waitUntil` work continues. States and decisions: request-state.ts.
 *
 * A job marked `profile` runs under isolated-vm's CPU profiler (profile.ts); when it is stopped at
 * its CPU budget, the profile is collected before the request ends and sent ahead of its end. Its
 * isolate is disposed afterwards whatever the outcome, so no later request pays for profiling.
 */
import { CORE_METHODS, GUEST_LIMITS } from '../shared/bridge.ts';
import type { FromWorker, Outcome, ResponseHead, RunError, RunJob, VersionSpec } from '../protocol/messages.ts';
import { coldStart, StartupError } from './cold-start.ts';
import type { Background } from './background.ts';
import type { SlotHandler } from './host-bridge.ts';
import type { Journal } from '../protocol/journal.ts';
import { createLogBuffer, type LogBuffer } from './log-buffer.ts';
import { startRequestProfiler, type RequestProfiler } from './profile.ts';
import { createRequestIo, type RequestIo } from './request-io.ts';
import type { Pool } from './pool.ts';
import { guestError, nextStep, type RequestState } from './request-state.ts';
import { checkResponse } from './response-check.ts';
import { stoppedAt, versionStacks } from './stacks.ts';
import type { RawError } from '../stacks/map.ts';
import { runSlice, type SliceResult } from './slice.ts';
import type { KillReason, Slot } from './slot.ts';

/** The line of an uncaught error (`core.fail`: its one-line text, stack, name and message). */
function thrownLine(args: unknown[]): [string, RawError | null] {
  const [summary, stack, name, message] = args;
  const text = typeof summary === 'string' ? summary.slice(0, GUEST_LIMITS.errorMessageChars) : 'The app threw an error';
  if (typeof stack !== 'string' || stack === '') return [text, null];
  return [text, {
    name: typeof name === 'string' ? name.slice(0, 100) : 'Error',
    message: typeof message === 'string' ? message.slice(0, GUEST_LIMITS.errorMessageChars) : text,
    stack: stack.slice(0, GUEST_LIMITS.errorStackChars),
  }];
}

export interface RunDeps {
  pool: Pool;
  background: Background;
  blank: () => Slot;
  journal: Journal;
  startupCpuMs: number;
  send: (msg: FromWorker, body?: Buffer | string | null, encoding?: 'utf8' | 'latin1') => void;
  now: () => number;
}

export interface RunningRequest {
  egressResult(opId: number, ok: boolean, value: unknown): void;
}

export function runRequest(deps: RunDeps, spec: VersionSpec, job: RunJob, body: string | null, bodyKind: 'text' | 'latin1', onEnd: () => void): RunningRequest {
  const started = deps.now();
  const deadlineAt = started + job.deadlineMs;
  const account = { usedNs: 0, limitNs: job.cpuBudgetMs * 1e6 };
  let state: RequestState = { phase: 'waiting' };
  let coldStartMs: number | null = null;
  let deadline: ReturnType<typeof setTimeout> | null = null;
  let stopWaiting: (() => void) | null = null;
  let profiler: RequestProfiler | null = null;
  // Set while a stopped request's profile is being collected: nothing enters the guest meanwhile.
  let closing = false;
  // Made when first needed: most requests log nothing and wait on nothing.
  let logBuffer: LogBuffer | null = null;
  const logs = (): LogBuffer => (logBuffer ??= createLogBuffer(spec.redact, deps.now, spec.sourceMapPath));
  let requestIo: RequestIo | null = null;
  const io = (): RequestIo => (requestIo ??= createRequestIo({
    requestId: job.id, deadlineAt, logs: logs(), send: deps.send, now: deps.now,
    active: () => state.phase === 'active' && !closing,
    fire: (opId) => { if (state.phase === 'active') enter(state.slot, (slot) => slot.deliver(opId, true, null)); },
  }));

  const handler: SlotHandler = {
    get scope() { return io().scope; },
    charge: (micros) => { account.usedNs += micros * 1000; },
    core(method, args) {
      if (state.phase !== 'active') return;
      if (method === CORE_METHODS.respond && state.response === null && state.failure === null) {
        const checked = checkResponse(args, job.maxResponseBytes);
        if (typeof checked === 'string') {
          state.failure = guestError(checked);
          logs().add('error', checked);
        } else {
          state.response = checked;
          // The guest says no `waitUntil` work was pending: the request is done with its answer.
          if (args[5] === true) state.settled = true;
        }
      } else if (method === CORE_METHODS.fail && state.response === null && state.failure === null) {
        logs().add('error', ...thrownLine(args));
        state.failure = guestError('The app threw an error while handling the request; see the app log');
      } else if (method === CORE_METHODS.done) state.settled = true;
    },
  };

  const report = (outcome: Outcome) => ({
    outcome, cpuMs: Math.round(account.usedNs / 1000) / 1000, wallMs: deps.now() - started, coldStartMs,
    ...(logBuffer === null ? { logs: [], droppedLogs: 0 } : logBuffer.take()),
  });

  const limitError = (outcome: 'cpu_limit' | 'deadline' | 'memory_limit'): RunError =>
    outcome === 'cpu_limit' ? { tag: 'PlatformRuntimeCpuLimitError', message: `The app used more than ${job.cpuBudgetMs} ms of CPU time`, fields: { limitMs: job.cpuBudgetMs } }
      : outcome === 'deadline' ? { tag: 'PlatformRuntimeDeadlineError', message: `The app did not finish within ${job.deadlineMs} ms`, fields: { deadlineMs: job.deadlineMs } }
        : { tag: 'PlatformRuntimeMemoryLimitError', message: 'The app ran out of memory' };

  const sendResponse = (head: ResponseHead, responseBody: string | null, encoding: 'utf8' | 'latin1', withReport: Outcome | null): void => {
    deps.send(withReport === null ? { t: 'response', id: job.id, response: head } : { t: 'response', id: job.id, response: head, report: report(withReport) }, responseBody, encoding);
  };

  const end = (outcome: Outcome, error: RunError | null, dispose: KillReason | null): void => {
    if (state.phase === 'ended') return;
    const previous = state;
    const profiled = profiler !== null || job.profile === true;
    profiler?.discard();
    profiler = null;
    state = { phase: 'ended', outcome };
    stopWaiting?.();
    if (deadline !== null) clearTimeout(deadline);
    requestIo?.close();
    if (previous.phase === 'active' && previous.responseSent) deps.send({ t: 'end', id: job.id, report: report(outcome) });
    else if (previous.phase === 'active' && previous.response !== null && error === null) {
      // Lines with an error are mapped through the source map (parsed on first use): the answer leaves first.
      if (logBuffer?.hasErrors() === true) {
        sendResponse(previous.response.head, previous.response.body, previous.response.encoding, null);
        deps.send({ t: 'end', id: job.id, report: report(outcome) });
      } else sendResponse(previous.response.head, previous.response.body, previous.response.encoding, outcome);
    } else deps.send({ t: 'end', id: job.id, report: report(outcome), error: error ?? guestError('The app did not answer') });
    if (previous.phase === 'active') {
      if (dispose !== null || profiled) previous.slot.dispose(dispose ?? 'profiled');
      else deps.background.served(previous.slot);
      deps.pool.release(spec.key, previous.slot);
    }
    deps.background.kick();
    onEnd();
  };

  /** Stops a request over a limit: its isolate is disposed (its state is unknown). */
  const stop = (outcome: 'cpu_limit' | 'deadline' | 'memory_limit', note: string, where: RawError | null = null): void => {
    if (closing) return;
    logs().addLimit(note, where);
    const answered = state.phase === 'active' && state.responseSent;
    // Past the deadline after the response left, the request itself succeeded.
    const finish = () => end(outcome === 'deadline' && answered ? 'ok' : outcome, limitError(outcome), outcome === 'cpu_limit' ? 'cpu' : outcome === 'deadline' ? 'deadline' : null);
    if (outcome !== 'cpu_limit' || profiler === null || state.phase !== 'active') return finish();
    const collecting = profiler;
    profiler = null;
    closing = true;
    void collecting.collect(versionStacks(spec.sourceMapPath).callFrame).then((json) => {
      if (json !== null) deps.send({ t: 'profile', id: job.id }, json, 'utf8');
      closing = false;
      finish();
    });
  };

  const afterSlice = (result: SliceResult): void => {
    if (state.phase !== 'active') return;
    switch (result.kind) {
      case 'cpu': return stop('cpu_limit', `The request used more than its ${job.cpuBudgetMs} ms CPU budget and was stopped.`, stoppedAt(result.stack, job.cpuBudgetMs));
      case 'memory': return stop('memory_limit', 'The app ran out of memory (isolate heap limit) and its isolate was replaced.');
      case 'disposed':
      case 'error':
        logs().add('error', 'The platform could not enter the app');
        if (result.kind === 'error') deps.send({ t: 'log', level: 'error', message: 'entering an isolate failed', error: result.message });
        return end('error', guestError('The platform could not run the app'), 'evicted');
      case 'ok': break;
    }
    const next = nextStep(state);
    if (next.step === 'end') return end(next.outcome, next.error, null);
    if (next.step === 'send-response') {
      state.responseSent = true;
      const r = state.response!;
      sendResponse(r.head, r.body, r.encoding, null);
    }
    // Waiting for timers, fetches or waitUntil work: the wall deadline now applies.
    if (deadline === null) deadline = setTimeout(() => stop('deadline', `The request ran past its ${job.deadlineMs} ms deadline and was stopped.`), Math.max(0, deadlineAt - deps.now()));
  };

  const enter = (slot: Slot, call: (slot: Slot) => void): void => {
    if (closing) return;
    // The profiler's own cost on this entry is not the guest's to pay, nor to be reported as the
    // guest's: it is taken off the account (the slice's limit rises by as much), so the budget and
    // the report's `cpuMs` count the guest's CPU, as for an unprofiled request.
    if (profiler !== null) account.usedNs -= profiler.entryCostNs;
    deps.journal.enter(job.seq);
    afterSlice(runSlice(slot.isolate, account, () => call(slot)));
  };

  const begin = (slot: Slot): void => {
    slot.handler = handler;
    state = { phase: 'active', slot, response: null, responseSent: false, failure: null, settled: false };
    if (job.profile === true) {
      try {
        profiler = startRequestProfiler(slot.isolate, job.id, () => slot.emptyEntry());
      } catch (err) {
        // The request runs unprofiled (its isolate is still disposed at the end: the profiler may be open).
        deps.send({ t: 'log', level: 'warn', message: 'starting the CPU profiler failed', error: err instanceof Error ? err.message : String(err) });
      }
    }
    enter(slot, (s) => s.dispatch({ method: job.method, url: job.url, headers: job.headers, body, bodyKind, kind: job.kind, requestId: job.id, deliveryId: job.deliveryId, envId: spec.vid, env: spec.env }));
  };

  const startupFailed = (err: unknown): void => {
    if (!(err instanceof StartupError)) {
      deps.send({ t: 'log', level: 'error', message: 'starting an isolate failed', error: err instanceof Error ? err.stack ?? err.message : String(err) });
      return end('error', guestError('The platform could not start the app'), null);
    }
    if (err.kind === 'cpu') logs().addLimit(`Starting the bundle used more than ${deps.startupCpuMs} ms of CPU and was stopped.`, stoppedAt(err.guestStack, deps.startupCpuMs));
    else logs().add('error', err.message, err.thrown);
    const error: RunError = err.kind === 'cpu' ? { tag: 'PlatformRuntimeCpuLimitError', message: err.message, fields: { limitMs: deps.startupCpuMs } }
      : err.kind === 'memory' ? limitError('memory_limit') : { tag: 'PlatformAppBundleInvalidError', message: err.message };
    end(err.kind === 'cpu' ? 'cpu_limit' : err.kind === 'memory' ? 'memory_limit' : 'error', error, null);
  };

  const acquire = (): void => {
    if (state.phase !== 'waiting') return;
    const taken = deps.pool.take(spec.key);
    if (taken === 'full') {
      if (deadline === null) deadline = setTimeout(() => end('deadline', limitError('deadline'), null), job.deadlineMs);
      stopWaiting = deps.pool.wait(spec.key, (slot) => {
        stopWaiting = null;
        if (slot === null) return acquire();
        if (state.phase !== 'waiting') return deps.pool.release(spec.key, slot);
        begin(slot);
      });
      return;
    }
    if (taken !== 'start') return begin(taken);
    let slot: Slot;
    try {
      slot = coldStart({ background: deps.background, blank: deps.blank, startupCpuMs: deps.startupCpuMs }, spec, handler, () => deps.journal.enter(job.seq));
    } catch (err) {
      deps.pool.abandon(spec.key);
      return startupFailed(err);
    }
    coldStartMs = deps.now() - started;
    begin(slot);
  };

  acquire();

  return {
    egressResult(opId, ok, value) {
      if (requestIo === null || !requestIo.settleFetch(opId) || state.phase !== 'active') return;
      enter(state.slot, (slot) => slot.deliver(opId, ok, value));
    },
  };
}
