/**
 * @module sandbox/executor
 * Runs every entry into any isolate of this worker one at a time ("slices"), measures each slice's
 * guest CPU (cpu-clock.ts) into the request's CPU account, and watches the running slice: when the
 * account passes its limit, `onOverBudget` ends it (the request runner captures the guest's stack
 * and disposes the isolate). One interval timer serves all slices while the executor is busy: limits
 * are armed once, not per call (isolated-vm's per-call `timeout` is wall-clock and costly).
 */
import { cpuMark, guestMicrosSince, type CpuMark } from './cpu-clock.ts';
import { createGuestThreadNicer } from './guest-threads.ts';

export interface CpuAccount {
  /** Guest CPU charged so far, in microseconds. */
  usedUs: number;
  /** The budget; `Infinity` for work that is not limited. */
  limitUs: number;
}

export interface Slice<T> {
  account: CpuAccount;
  run: () => Promise<T>;
  /** Called once when the account passes its limit while this slice runs. */
  onOverBudget: () => void;
}

interface Queued {
  slice: Slice<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface Executor {
  submit<T>(slice: Slice<T>): Promise<T>;
  /**
   * Charges the running slice of `account` up to now and ignores its CPU from here on: called
   * right after its isolate was disposed, so that tearing the isolate down is not billed as guest
   * computation.
   */
  freeze(account: CpuAccount): void;
  /** True while a slice runs. */
  readonly busy: boolean;
  readonly queued: number;
}

export function createExecutor(options: { watchIntervalMs?: number } = {}): Executor {
  const queue: Queued[] = [];
  let current: { slice: Slice<unknown>; mark: CpuMark; fired: boolean; frozenUs: number | null } | null = null;
  let watch: ReturnType<typeof setInterval> | null = null;
  const nicer = createGuestThreadNicer();

  const check = (): void => {
    if (current === null || current.fired) return;
    const used = current.slice.account.usedUs + guestMicrosSince(current.mark);
    if (used > current.slice.account.limitUs) {
      current.fired = true;
      current.slice.onOverBudget();
    }
  };

  const next = (): void => {
    const item = queue.shift();
    if (item === undefined) {
      if (watch !== null) clearInterval(watch);
      watch = null;
      return;
    }
    if (watch === null) {
      watch = setInterval(check, options.watchIntervalMs ?? 1);
      watch.unref();
    }
    nicer.scan();
    const mark = cpuMark();
    const running = { slice: item.slice, mark, fired: false, frozenUs: null as number | null };
    current = running;
    let promise: Promise<unknown>;
    try {
      promise = item.slice.run();
    } catch (err) {
      promise = Promise.reject(err);
    }
    promise.then(
      (value) => finish(running, () => item.resolve(value)),
      (err: unknown) => finish(running, () => item.reject(err)),
    );
  };

  const finish = (running: { slice: Slice<unknown>; mark: CpuMark; frozenUs: number | null }, settle: () => void): void => {
    running.slice.account.usedUs += running.frozenUs ?? guestMicrosSince(running.mark);
    current = null;
    settle();
    next();
  };

  return {
    submit<T>(slice: Slice<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ slice: slice as Slice<unknown>, resolve: resolve as (v: unknown) => void, reject });
        if (current === null && queue.length === 1) next();
      });
    },
    freeze(account) {
      if (current !== null && current.slice.account === account && current.frozenUs === null) current.frozenUs = guestMicrosSince(current.mark);
    },
    get busy() { return current !== null; },
    get queued() { return queue.length; },
  };
}
