import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPeriodicTask } from '../../../control-plane/src/core/clock/periodic-task.ts';

// Vitest's fake timers drive the ticks, so no test waits for a real interval.
describe('createPeriodicTask', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every interval and never overlaps a run still in progress', async () => {
    vi.useFakeTimers();
    let release: () => void = () => {};
    const runs: number[] = [];
    const task = createPeriodicTask({
      intervalMs: 1_000,
      run: () => {
        runs.push(Date.now());
        return new Promise<void>((resolve) => { release = resolve; });
      },
      onError: () => {},
    });
    task.start();
    await vi.advanceTimersByTimeAsync(3_500);
    expect(runs).toHaveLength(1); // ticks 2 and 3 came while run 1 was still going
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(2);
    release();
    await task.stop();
  });

  it('tells onError of a failed run and retries on the next tick', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let calls = 0;
    const task = createPeriodicTask({
      intervalMs: 100,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('first fails');
      },
      onError: (err) => errors.push(err),
    });
    task.start();
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('first fails');
    await task.stop();
  });

  it('stop waits for the run in progress, and no tick follows it', async () => {
    vi.useFakeTimers();
    let finished = false;
    let release: () => void = () => {};
    let calls = 0;
    const task = createPeriodicTask({
      intervalMs: 100,
      run: () => {
        calls += 1;
        return new Promise<void>((resolve) => { release = () => { finished = true; resolve(); }; });
      },
      onError: () => {},
    });
    task.start();
    await vi.advanceTimersByTimeAsync(100);
    const stopped = task.stop();
    let stopSettled = false;
    void stopped.then(() => { stopSettled = true; });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopSettled).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(1);
  });

  it('an interval of 0 never starts', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const task = createPeriodicTask({ intervalMs: 0, run: async () => { calls += 1; }, onError: () => {} });
    task.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(0);
    await task.stop();
  });
});
