/**
 * @module sandbox/request-state
 * The life of one request in a worker as an explicit state, and the one function that decides
 * what happens next after every entry into the guest. The runner (request-run.ts) performs what
 * it decides.
 *
 *   waiting ──slot──▶ active ──(responded and settled | failed | stopped)──▶ ended
 *
 * `active` carries what the guest reported through its runtime during the request: a checked
 * response, a failure, and whether every `ctx.waitUntil` promise settled.
 */
import type { Outcome, RunError } from '../protocol/messages.ts';
import type { CheckedResponse } from './response-check.ts';
import type { Slot } from './slot.ts';

export type RequestState =
  | { phase: 'waiting' }
  | {
    phase: 'active';
    slot: Slot;
    response: CheckedResponse | null;
    /** The response already left (the request goes on for `waitUntil` work). */
    responseSent: boolean;
    failure: RunError | null;
    settled: boolean;
  }
  | { phase: 'ended'; outcome: Outcome };

export type NextStep =
  | { step: 'wait' }
  | { step: 'send-response' }
  | { step: 'end'; outcome: Outcome; error: RunError | null };

const guestError = (message: string): RunError => ({ tag: 'PlatformRuntimeGuestError', message });

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

export { guestError };
