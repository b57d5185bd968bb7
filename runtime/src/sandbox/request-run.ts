/**
 * @module sandbox/request-run
 * One request in a worker: get a slot, enter the guest (dispatch), feed it timer and fetch results
 * as further slices, and end it exactly once: answered and settled, over CPU (stack captured,
 * isolate disposed), out of memory, or past its wall deadline (isolate disposed: its state is
 * unknown). The response may leave before the end when `ctx.waitUntil` work continues.
 */
import type { RequestScope } from '../capabilities/types.ts';
import type { GuestFetchResult, GuestResponseInit } from '../shared/bridge.ts';
import { CORE_METHODS } from '../shared/bridge.ts';
import type { FromWorker, Outcome, RunError, RunJob } from '../protocol/messages.ts';
import type { WorkerLimits } from '../config.ts';
import type { Executor } from './executor.ts';
import type { SlotHandler } from './host-bridge.ts';
import { createLogBuffer } from './log-buffer.ts';
import { StartupError, type Pool } from './pool.ts';
import { checkResponse } from './response-check.ts';
import type { KillReason, Slot } from './slot.ts';
import { describeStop, stopSlot } from './stop.ts';

export interface RunDeps {
  pool: Pool;
  executor: Executor;
  limits: WorkerLimits;
  send: (msg: FromWorker) => void;
  now: () => number;
}

export interface RunningRequest {
  egressResult(opId: number, ok: boolean, value: GuestFetchResult | string): void;
}

export function runRequest(deps: RunDeps, job: RunJob, onEnd: () => void): RunningRequest {
  const started = deps.now();
  const deadlineAt = started + job.deadlineMs;
  const account = { usedUs: 0, limitUs: job.cpuBudgetMs * 1000 };
  const startupAccount = { usedUs: 0, limitUs: deps.limits.startupCpuMs * 1000 };
  const logs = createLogBuffer(job.redact, deps.now);
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const fetches = new Set<number>();
  const waiting = new AbortController();
  let slot: Slot | null = null;
  let phase: 'starting' | 'running' | 'ended' = 'starting';
  let slices = 0;
  let response: GuestResponseInit | null = null;
  let responseSent = false;
  let failure: RunError | null = null;
  let settled = false;
  let coldStartMs: number | null = null;
  /** Set when the request was stopped while a slice ran: it ends once that slice has unwound. */
  let stoppedWith: { outcome: Outcome; error: RunError | null; logged: boolean } | null = null;

  const guestError = (message: string): RunError => ({ tag: 'PlatformRuntimeGuestError', message });

  const scope: RequestScope = {
    requestId: job.id,
    get startup() { return phase === 'starting'; },
    log: (level, text) => logs.add(level, text),
    startFetch(opId, init) {
      if (phase !== 'running') return logs.add('error', 'fetch() is not available while the bundle\'s top level runs');
      fetches.add(opId);
      deps.send({ t: 'egress', id: job.id, opId, init });
    },
    abortFetch(opId) {
      if (fetches.delete(opId)) deps.send({ t: 'egress-abort', id: job.id, opId });
    },
    setTimer(opId, delayMs) {
      if (phase !== 'running' || timers.size >= 1000) return;
      // A timer due after the deadline could never fire inside this request: it is not armed.
      if (deps.now() + delayMs >= deadlineAt) return;
      timers.set(opId, setTimeout(() => {
        timers.delete(opId);
        slice(() => slot!.deliver(opId, true, null));
      }, delayMs));
    },
    clearTimer(opId) {
      clearTimeout(timers.get(opId));
      timers.delete(opId);
    },
  };

  const handler: SlotHandler = {
    scope,
    charge(micros) { account.usedUs += micros; },
    core(method, args) {
      if (phase !== 'running') return;
      if (method === CORE_METHODS.respond && response === null && failure === null) {
        const checked = checkResponse(args[0], job.maxResponseBytes);
        if (typeof checked === 'string') {
          failure = guestError(checked);
          logs.add('error', checked);
        } else response = checked;
      } else if (method === CORE_METHODS.fail && response === null && failure === null) {
        const e = (typeof args[0] === 'object' && args[0] !== null ? args[0] : {}) as { message?: unknown; stack?: unknown };
        const message = typeof e.message === 'string' ? e.message : 'The app threw an error';
        const stack = typeof e.stack === 'string' ? e.stack : '';
        logs.add('error', stack.length === 0 ? message : stack.includes(message) ? stack : `${message}\n${stack}`);
        failure = guestError('The app threw an error while handling the request; see the app log');
      } else if (method === CORE_METHODS.done) settled = true;
      if (slices === 0) progress();
    },
  };

  const report = (outcome: Outcome) => ({
    outcome,
    cpuMs: Math.round(account.usedUs) / 1000,
    wallMs: deps.now() - started,
    coldStartMs,
    ...logs.take(),
  });

  const end = (outcome: Outcome, error: RunError | null, dispose: KillReason | null): void => {
    if (phase === 'ended') return;
    // Only a request still waiting for a slot has anything to abort (an abort allocates an error).
    if (phase === 'starting') waiting.abort();
    phase = 'ended';
    clearTimeout(deadline);
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    for (const opId of fetches) deps.send({ t: 'egress-abort', id: job.id, opId });
    fetches.clear();
    const msg: FromWorker = { t: 'result', id: job.id, report: report(outcome) };
    if (!responseSent && response !== null && error === null) msg.response = response;
    else if (!responseSent) msg.error = error ?? failure ?? guestError('The app did not answer');
    deps.send(msg);
    if (slot !== null) {
      if (dispose !== null) slot.dispose(dispose);
      deps.pool.release(slot);
    }
    onEnd();
  };

  /** Called between slices: send an early response, or end when answered and settled. */
  const progress = (): void => {
    if (phase !== 'running') return;
    if (stoppedWith !== null) return endStopped();
    if (failure !== null) return end('error', null, null);
    if (settled) return response === null ? end('error', guestError('The app finished without a response'), null) : end('ok', null, null);
    if (response !== null && !responseSent) {
      responseSent = true;
      deps.send({ t: 'response', id: job.id, response });
    }
  };

  /** Ends a stopped request once its limit event is logged and its last slice has unwound. */
  const endStopped = (): void => {
    if (stoppedWith !== null && stoppedWith.logged && slices === 0) end(stoppedWith.outcome, stoppedWith.error, 'deadline');
  };

  const kill = async (outcome: 'cpu_limit' | 'deadline'): Promise<void> => {
    if (phase === 'ended' || stoppedWith !== null) return;
    if (slot === null) return end(outcome, limitError(outcome), null);
    const stop = outcome === 'deadline' && responseSent ? { outcome: 'ok' as const, error: null, logged: false } : { outcome, error: limitError(outcome), logged: false };
    stoppedWith = stop;
    const stopped = await stopSlot(slot, outcome === 'cpu_limit' ? 'cpu' : 'deadline', slices > 0, deps.now);
    deps.executor.freeze(account);
    const what = outcome === 'cpu_limit' ? `used more than its ${job.cpuBudgetMs} ms CPU budget` : `ran past its ${job.deadlineMs} ms deadline`;
    logs.addLimit(describeStop(`The request ${what}`, stopped));
    stop.logged = true;
    endStopped();
  };

  const limitError = (outcome: 'cpu_limit' | 'deadline' | 'memory_limit'): RunError =>
    outcome === 'cpu_limit' ? { tag: 'PlatformRuntimeCpuLimitError', message: `The app used more than ${job.cpuBudgetMs} ms of CPU time`, fields: { limitMs: job.cpuBudgetMs } }
      : outcome === 'deadline' ? { tag: 'PlatformRuntimeDeadlineError', message: `The app did not finish within ${job.deadlineMs} ms`, fields: { deadlineMs: job.deadlineMs } }
        : { tag: 'PlatformRuntimeMemoryLimitError', message: 'The app ran out of memory' };

  const slice = (run: () => Promise<unknown>): void => {
    if (phase !== 'running') return;
    slices++;
    deps.executor.submit({
      account,
      run: () => (phase === 'running' && slot !== null && !slot.disposed ? run() : Promise.resolve()),
      onOverBudget: () => { void kill('cpu_limit'); },
    }).then(
      () => { slices--; progress(); },
      () => {
        slices--;
        if (phase !== 'running') return;
        if (stoppedWith !== null) return endStopped();
        if (slot !== null && slot.disposed && slot.killReason === null) {
          logs.addLimit('The app ran out of memory (isolate heap limit) and its isolate was replaced.');
          return end('memory_limit', limitError('memory_limit'), null);
        }
        logs.add('error', 'The platform could not enter the app');
        end('error', guestError('The platform could not run the app'), 'evicted');
      },
    );
  };

  const deadline = setTimeout(() => { void kill('deadline'); }, job.deadlineMs);

  void (async () => {
    try {
      const got = await deps.pool.acquire(job.version, handler, startupAccount, waiting.signal);
      if (got === null) return;
      slot = got.slot;
      if (got.cold) coldStartMs = deps.now() - started;
      // The deadline may have passed during a cold start.
      if ((phase as string) === 'ended') return deps.pool.release(slot);
      slot.handler = handler;
      phase = 'running';
      slice(() => slot!.dispatch(job.request, job.env, job.context));
    } catch (err) {
      if (!(err instanceof StartupError)) {
        deps.send({ t: 'log', level: 'error', message: 'starting an isolate failed', error: err instanceof Error ? err.stack ?? err.message : String(err) });
        return end('error', guestError('The platform could not start the app'), null);
      }
      if (err.kind === 'cpu') logs.addLimit(`Starting the bundle used more than ${deps.limits.startupCpuMs} ms of CPU and was stopped${err.guestStack === null ? '.' : ` at:\n${err.guestStack}`}`);
      else logs.add('error', err.message);
      const error: RunError = err.kind === 'cpu' ? { tag: 'PlatformRuntimeCpuLimitError', message: err.message, fields: { limitMs: deps.limits.startupCpuMs } }
        : err.kind === 'memory' ? limitError('memory_limit') : { tag: 'PlatformAppBundleInvalidError', message: err.message };
      end(err.kind === 'cpu' ? 'cpu_limit' : err.kind === 'memory' ? 'memory_limit' : 'error', error, null);
    }
  })();

  return {
    egressResult(opId, ok, value) {
      if (!fetches.delete(opId)) return;
      slice(() => slot!.deliver(opId, ok, value));
    },
  };
}
