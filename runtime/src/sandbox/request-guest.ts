/**
 * @module sandbox/request-guest
 * What the guest's runtime reports about a request while it runs (its answer, an uncaught error,
 * the end of its `waitUntil` work), recorded in the request's active state; and the CPU the host
 * spends on its behalf, charged to its account. The runner decides what follows after the entry
 * returns (request-state.ts, `nextStep`).
 */
import { CORE_METHODS, GUEST_LIMITS } from '../shared/bridge.ts';
import type { RawError } from '../stacks/map.ts';
import type { SlotHandler } from './host-bridge.ts';
import { logs, type RequestContext } from './request-context.ts';
import type { RequestIo } from './request-io.ts';
import { guestError, type ActiveState } from './request-state.ts';
import { checkResponse } from './response-check.ts';

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

function responded(run: RequestContext, state: ActiveState, args: unknown[]): void {
  const checked = checkResponse(args, run.job.maxResponseBytes);
  if (typeof checked === 'string') {
    state.failure = guestError(checked);
    logs(run).add('error', checked);
    return;
  }
  state.response = checked;
  // The guest says no `waitUntil` work was pending: the request is done with its answer.
  if (args[5] === true) state.settled = true;
}

/** The slot's handler for this request; `io` makes the request's timers and fetches on first use. */
export function guestHandler(run: RequestContext, io: () => RequestIo): SlotHandler {
  return {
    get scope() { return io().scope; },
    charge: (micros) => { run.account.usedNs += micros * 1000; },
    core(method, args) {
      const state = run.state;
      if (state.phase !== 'active') return;
      const first = state.response === null && state.failure === null;
      if (method === CORE_METHODS.respond && first) responded(run, state, args);
      else if (method === CORE_METHODS.fail && first) {
        logs(run).add('error', ...thrownLine(args));
        state.failure = guestError('The app threw an error while handling the request; see the app log');
      } else if (method === CORE_METHODS.done) state.settled = true;
    },
  };
}
