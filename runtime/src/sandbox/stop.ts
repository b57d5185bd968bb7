/**
 * @module sandbox/stop
 * Stops a slot whose guest must not run on: records the guest's stack when it can (through the
 * inspector, at most a few times per app version and window: see stack.ts for why),
 * then disposes the isolate, which ends the running script.
 */
import type { KillReason, Slot } from './slot.ts';
import { captureStack } from './stack.ts';

/** How long to wait for the stack (about 1 ms on an idle core; longer when the core is contended). */
const CAPTURE_WAIT_MS = 20;
const CAPTURES_PER_WINDOW = 3;
const WINDOW_MS = 10 * 60_000;

const captures = new Map<string, { count: number; since: number }>();

function mayCapture(key: string, now: number): boolean {
  const entry = captures.get(key);
  if (entry === undefined || now - entry.since > WINDOW_MS) {
    captures.set(key, { count: 1, since: now });
    if (captures.size > 10_000) captures.delete(captures.keys().next().value as string);
    return true;
  }
  entry.count++;
  return entry.count <= CAPTURES_PER_WINDOW;
}

export type StopResult = { stack: string } | { stack: null; why: 'not-running' | 'not-captured' | 'rate-limited' };

export async function stopSlot(slot: Slot, reason: KillReason, running: boolean, now: () => number = Date.now): Promise<StopResult> {
  if (slot.disposed || !running) {
    slot.dispose(reason);
    return { stack: null, why: 'not-running' };
  }
  if (!mayCapture(slot.key ?? '-', now())) {
    slot.dispose(reason);
    return { stack: null, why: 'rate-limited' };
  }
  const stack = await captureStack(slot.isolate, CAPTURE_WAIT_MS);
  slot.dispose(reason);
  return stack === null ? { stack: null, why: 'not-captured' } : { stack };
}

/** The limit-event text for the app's log. */
export function describeStop(what: string, result: StopResult): string {
  if (result.stack !== null) return `${what} and was stopped at:\n${result.stack}`;
  if (result.why === 'rate-limited') return `${what} and was stopped (stack not captured: repeated limit events of this version)`;
  if (result.why === 'not-captured') return `${what} and was stopped (its stack could not be captured in time)`;
  return `${what} and was stopped.`;
}
