// The request runner's state machine (runtime/src/sandbox/request-state.ts): the moves the diagram
// has are made, every other one is refused, and what follows an entry is decided from the state alone.
import { describe, expect, it } from 'vitest';
import type { RequestProfiler } from '../../runtime/src/sandbox/profile.ts';
import type { CheckedResponse } from '../../runtime/src/sandbox/response-check.ts';
import { activeState, guestError, nextStep, transition, type RequestState, type StateHolder } from '../../runtime/src/sandbox/request-state.ts';
import type { Slot } from '../../runtime/src/sandbox/slot.ts';

// The state machine only carries the slot and profiler; it never calls them.
const slot = {} as Slot;
const profiler = null as RequestProfiler | null;
const response: CheckedResponse = { head: { status: 200, headers: '' }, body: 'ok', encoding: 'utf8' } as CheckedResponse;

const states: Record<RequestState['phase'], () => RequestState> = {
  waiting: () => ({ phase: 'waiting', stopWaiting: null }),
  active: () => activeState(slot, profiler),
  collecting: () => ({ phase: 'collecting', slot, responseSent: false }),
  ended: () => ({ phase: 'ended', outcome: 'ok' }),
};
const allowed = new Set(['waiting>active', 'waiting>ended', 'active>collecting', 'active>ended', 'collecting>ended']);

describe('request state transitions', () => {
  for (const from of Object.keys(states) as Array<RequestState['phase']>) {
    for (const to of Object.keys(states) as Array<RequestState['phase']>) {
      const move = `${from}>${to}`;
      it(`${allowed.has(move) ? 'makes' : 'refuses'} ${from} → ${to}`, () => {
        const holder: StateHolder = { state: states[from]() };
        const before = holder.state;
        if (allowed.has(move)) {
          expect(transition(holder, states[to]())).toBe(before);
          expect(holder.state.phase).toBe(to);
        } else {
          expect(() => transition(holder, states[to]())).toThrow(`no move from ${from} to ${to}`);
          expect(holder.state).toBe(before);
        }
      });
    }
  }
});

describe('what follows an entry', () => {
  it('waits while nothing was reported, sends an answer that has work left, ends a settled one', () => {
    const s = activeState(slot, profiler);
    expect(nextStep(s)).toEqual({ step: 'wait' });
    s.response = response;
    expect(nextStep(s)).toEqual({ step: 'send-response' });
    s.responseSent = true;
    expect(nextStep(s)).toEqual({ step: 'wait' });
    s.settled = true;
    expect(nextStep(s)).toEqual({ step: 'end', outcome: 'ok', error: null });
  });

  it('ends a failure at once, and a settled request without an answer as an error', () => {
    const failed = activeState(slot, profiler);
    failed.failure = guestError('thrown');
    expect(nextStep(failed)).toEqual({ step: 'end', outcome: 'error', error: guestError('thrown') });
    const silent = activeState(slot, profiler);
    silent.settled = true;
    expect(nextStep(silent)).toEqual({ step: 'end', outcome: 'error', error: guestError('The app finished without a response') });
  });

  it('decides nothing outside the active state', () => {
    expect(nextStep(states.waiting())).toEqual({ step: 'wait' });
    expect(nextStep(states.collecting())).toEqual({ step: 'wait' });
  });
});
