/**
 * @module sandbox/request-end
 * The end of one request, exactly once: the state moves to `ended`, its waits, timer, timers and
 * fetches stop, the answer (or the error) and its report leave, and its slot goes back to the pool,
 * or is disposed when its state is unknown (a stop) or it ran under the profiler.
 */
import type { Outcome, ResponseHead, RunError } from '../protocol/messages.ts';
import { report, type RequestContext } from './request-context.ts';
import { guestError, transition } from './request-state.ts';
import type { KillReason } from './slot.ts';

export function sendResponse(run: RequestContext, head: ResponseHead, body: string | null, encoding: 'utf8' | 'latin1', withReport: Outcome | null): void {
  const { id } = run.job;
  run.deps.send(withReport === null ? { t: 'response', id, response: head } : { t: 'response', id, response: head, report: report(run, withReport) }, body, encoding);
}

export function endRequest(run: RequestContext, outcome: Outcome, error: RunError | null, dispose: KillReason | null): void {
  if (run.state.phase === 'ended') return;
  const previous = transition(run, { phase: 'ended', outcome });
  const { deps, job } = run;
  if (previous.phase === 'waiting') previous.stopWaiting?.();
  if (previous.phase === 'active') previous.profiler?.discard();
  if (run.deadline !== null) clearTimeout(run.deadline);
  run.requestIo?.close();
  const held = previous.phase === 'active' || previous.phase === 'collecting' ? previous : null;
  if (held?.responseSent === true) deps.send({ t: 'end', id: job.id, report: report(run, outcome) });
  else if (previous.phase === 'active' && previous.response !== null && error === null) {
    const { head, body, encoding } = previous.response;
    // Lines with an error are mapped through the source map (parsed on first use): the answer leaves first.
    if (run.logBuffer?.hasErrors() === true) {
      sendResponse(run, head, body, encoding, null);
      deps.send({ t: 'end', id: job.id, report: report(run, outcome) });
    } else sendResponse(run, head, body, encoding, outcome);
  } else deps.send({ t: 'end', id: job.id, report: report(run, outcome), error: error ?? guestError('The app did not answer') });
  if (held !== null) {
    if (dispose !== null || job.profile === true) held.slot.dispose(dispose ?? 'profiled');
    else deps.background.served(held.slot);
    deps.pool.release(run.spec.key, held.slot);
  }
  deps.background.kick();
  run.onEnd();
}
