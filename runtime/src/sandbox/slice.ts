/**
 * @module sandbox/slice
 * One synchronous entry into an isolate under the request's CPU budget. The budget is enforced by
 * the patched isolated-vm (runtime/native): the isolate's CPU time limit is set to what is left of
 * the budget before the call, and a call that passes it is terminated with the guest's stack.
 * `cpuTime` is the guest thread's own CPU clock, so time spent waiting for a core is not charged.
 * On the stock binary (`platform dev` without the patched build, config/ivm-build.ts) there is no
 * CPU limit: the slot's calls into the guest get the rest of the budget as their wall-clock
 * `timeout` (`stockTimeout`), and its expiry counts as the CPU stop.
 */
import type { RawError } from '../stacks/map.ts';
import { STOCK_TIMEOUT_MESSAGE } from '../config/ivm-build.ts';
import { CPU_LIMIT_MESSAGE, type Isolate } from './ivm.ts';

/** A request's CPU account in nanoseconds: guest time of its slices plus host time charged to it. */
export interface CpuAccount {
  usedNs: number;
  limitNs: number;
}

export type SliceResult =
  | { kind: 'ok' }
  | { kind: 'cpu'; stack: string | null }
  | { kind: 'memory' }
  | { kind: 'disposed' }
  /** `error`: what the guest threw, when the call failed because of it (its stack text includes the host's frames after isolated-vm's boundary, which parsing drops). */
  | { kind: 'error'; message: string; error: RawError | null };

const BOUNDARY = '(<isolated-vm boundary>)';

/** The guest's frames of a stopped call's stack (isolated-vm appends the host's after a boundary line). */
export function guestStack(stack: unknown): string | null {
  if (typeof stack !== 'string') return null;
  const frames = stack.split('\n').slice(1);
  // No boundary: the call was refused before any guest code ran (its limit was already reached),
  // and every frame is the host's, which the app's author must not see.
  const end = frames.findIndex((line) => line.includes(BOUNDARY));
  if (end === -1) return null;
  const guest = frames.slice(0, end).filter((line) => line.trim().startsWith('at '));
  return guest.length === 0 ? null : guest.join('\n');
}

/** The guest's error as isolated-vm hands it to the host (name, message and the guest's frames in its stack). */
function thrown(err: unknown): RawError | null {
  if (!(err instanceof Error) || typeof err.stack !== 'string' || !err.stack.includes(BOUNDARY)) return null;
  return { name: err.name, message: err.message, stack: err.stack };
}

export function classify(err: unknown): SliceResult {
  const message = err instanceof Error ? err.message : String(err);
  if (message === CPU_LIMIT_MESSAGE || message === STOCK_TIMEOUT_MESSAGE) return { kind: 'cpu', stack: guestStack((err as Error).stack) };
  if (message.includes('due to memory limit')) return { kind: 'memory' };
  if (message.startsWith('Isolate was disposed') || message === 'Isolate is disposed') return { kind: 'disposed' };
  return { kind: 'error', message, error: thrown(err) };
}

/** What is left of the running slice's budget, per isolate on the stock binary (ms, at least 1). */
const stockBudgetMs = new WeakMap<Isolate, number>();

/**
 * The options a call into the guest adds on the stock binary: the rest of the slice's budget as
 * its `timeout`. Empty on the patched build, whose limit is the isolate's own.
 * @example api.dispatch.applySync(undefined, args, { ...stockTimeout(isolate) });
 */
export function stockTimeout(isolate: Isolate): { timeout?: number } {
  const ms = stockBudgetMs.get(isolate);
  return ms === undefined ? {} : { timeout: ms };
}

export function runSlice(isolate: Isolate, account: CpuAccount, enter: () => void): SliceResult {
  if (isolate.isDisposed) return { kind: 'disposed' };
  const before = isolate.cpuTime;
  const leftNs = Math.max(0, Math.ceil(account.limitNs - account.usedNs));
  // The patched build has the limit; the stock one (no such method) gets it per call as a timeout.
  if (typeof isolate.setCpuTimeLimit === 'function') isolate.setCpuTimeLimit(before + BigInt(leftNs));
  else stockBudgetMs.set(isolate, Math.max(1, Math.ceil(leftNs / 1e6)));
  try {
    enter();
    return { kind: 'ok' };
  } catch (err) {
    return classify(err);
  } finally {
    if (!isolate.isDisposed) account.usedNs += Number(isolate.cpuTime - before);
  }
}
