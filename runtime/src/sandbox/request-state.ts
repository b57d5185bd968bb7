/**
 * @module sandbox/request-state
 * The life of one request in a worker as an explicit state machine: the states (a discriminated
 * union, each holding only what exists in it), the one function that changes state (`transition`,
 * which refuses a move the diagram does not have), and the one function that decides what happens
 * next after an entry into the guest returned normally (`nextStep`). The runner (request-run.ts)
 * performs what they decide.
 *
 *   waiting ──slot──▶ active ──(responded and settled | failed | stopped)──────────▶ ended
 *      │                 └──CPU stop while profiled──▶ collecting ──profile sent──▶ ended
 *      └──(startup failed | waited past the deadline)─────────────────────────────▶ ended
 *
 * `waiting` may hold the pool's cancel for a request queued on a full pool. `active` holds the slot,
 * the profiler when the request is profiled, and what the guest reported through its runtime: a
 * checked response, whether it left, a failure, and whether every `ctx.waitUntil` promise settled.
 * `collecting`: a profiled request was stopped at its CPU budget and its profile is being collected;
 * nothing enters the guest and no other stop applies meanwhile.
 */
import type { Outcome, RunError } from '../protocol/messages.ts';
import type { RequestProfiler } from './profile.ts';
import type { CheckedResponse } from './response-check.ts';
import type { Slot } from './slot.ts';

export interface ActiveState {
  phase: 'active';
  slot: Slot;
  profiler: RequestProfiler | null;
  response: CheckedResponse | null;
  /** The response already left (the request goes on for `waitUntil` work). */
  responseSent: boolean;
  failure: RunError | null;
  settled: boolean;
}

export type RequestState =
  | { phase: 'waiting'; stopWaiting: (() => void) | null }
  | ActiveState
  | { phase: 'collecting'; slot: Slot; responseSent: boolean }
  | { phase: 'ended'; outcome: Outcome };

type Phase = RequestState['phase'];

const MOVES: Record<Phase, readonly Phase[]> = {
  waiting: ['active', 'ended'],
  active: ['collecting', 'ended'],
  collecting: ['ended'],
  ended: [],
};

/** The holder of a request's state: only `transition` assigns it. */
export interface StateHolder {
  state: RequestState;
}

/** Moves to `to` and returns the state left; a move outside the diagram is a bug and throws. */
export function transition(holder: StateHolder, to: RequestState): RequestState {
  const from = holder.state;
  if (!MOVES[from.phase].includes(to.phase)) throw new Error(`request state: no move from ${from.phase} to ${to.phase}`);
  holder.state = to;
  return from;
}

export function activeState(slot: Slot, profiler: RequestProfiler | null): ActiveState {
  return { phase: 'active', slot, profiler, response: null, responseSent: false, failure: null, settled: false };
}

export type NextStep =
  | { step: 'wait' }
  | { step: 'send-response' }
  | { step: 'end'; outcome: Outcome; error: RunError | null };

export const guestError = (message: string): RunError => ({ tag: 'PlatformRuntimeGuestError', message });

export type LimitOutcome = 'cpu_limit' | 'deadline' | 'memory_limit';

/** The tagged error of a request stopped at one of its limits. */
export function limitError(outcome: LimitOutcome, limits: { cpuBudgetMs: number; deadlineMs: number }): RunError {
  switch (outcome) {
    case 'cpu_limit': return { tag: 'PlatformRuntimeCpuLimitError', message: `The app used more than ${limits.cpuBudgetMs} ms of CPU time`, fields: { limitMs: limits.cpuBudgetMs } };
    case 'deadline': return { tag: 'PlatformRuntimeDeadlineError', message: `The app did not finish within ${limits.deadlineMs} ms`, fields: { deadlineMs: limits.deadlineMs } };
    case 'memory_limit': return { tag: 'PlatformRuntimeMemoryLimitError', message: 'The app ran out of memory' };
  }
}

/** What to do after an entry into the guest returned normally. */
export function nextStep(state: RequestState): NextStep {
  if (state.phase !== 'active') return { step: 'wait' };
  if (state.failure !== null) return { step: 'end', outcome: 'error', error: state.failure };
  if (state.settled) {
    return state.response === null
      ? { step: 'end', outcome: 'error', error: guestError('The app finished without a response') }
      : { step: 'end', outcome: 'ok', error: null };
  }
  if (state.response !== null && !state.responseSent) return { step: 'send-response' };
  return { step: 'wait' };
}
