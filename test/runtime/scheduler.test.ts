// The scheduler's rules on lanes as the supervisor keeps them (queued CPU and held requests per
// worker): a hot app is served by every worker, a heavy one never takes every worker, and an app that
// is not hot stays on its rendezvous workers.
import { describe, expect, it } from 'vitest';
import { createScheduler, SCHEDULER, type Lane } from '../../runtime/src/supervisor/scheduler.ts';
import { topTwo } from '../../runtime/src/supervisor/placement.ts';

interface TestLane extends Lane { jobs: Map<string, number> }
const lanes = (n: number): TestLane[] => Array.from({ length: n }, (_, index) => ({ index, queuedMs: 0, jobs: new Map() }));

/** Admits and places `count` requests of `appId` that each cost `costMs`; nothing ends. */
function flood(s: ReturnType<typeof createScheduler>, ls: TestLane[], appId: string, count: number, costMs: number): TestLane[] {
  const placed: TestLane[] = [];
  for (let i = 0; i < count; i++) {
    s.admit(appId, ls.length, () => {
      const lane = s.place(appId, `${appId}@1`, ls)!;
      lane.queuedMs += costMs;
      lane.jobs.set(`${appId}-${i}`, costMs);
      placed.push(lane);
    });
  }
  return placed;
}

describe('the scheduler', () => {
  it('spreads a hot app over every worker, each in turn', () => {
    const s = createScheduler();
    const ls = lanes(3);
    // One measured request: a trivial app (0.05 ms), far under the busy threshold of one worker.
    s.admit('app_hot', 3, () => {});
    s.done('app_hot', 0.05);
    const placed = flood(s, ls, 'app_hot', 12, 0.05);
    expect(new Set(placed.map((l) => l.index)).size).toBe(3);
    expect(ls.map((l) => l.jobs.size)).toEqual([4, 4, 4]);
  });

  it('keeps an app that is not hot on its first rendezvous worker while that one is not busy', () => {
    const s = createScheduler();
    const ls = lanes(3);
    const [first] = topTwo('app_calm@1', ls);
    const placed = flood(s, ls, 'app_calm', SCHEDULER.hotRunning - 1, 0.05);
    expect(placed.every((l) => l === first)).toBe(true);
  });

  it('never lets a heavy app run on every worker, hot or not; its others wait in order', () => {
    const s = createScheduler();
    const ls = lanes(2);
    s.admit('app_heavy', 2, () => {});
    s.done('app_heavy', 40);
    const placed = flood(s, ls, 'app_heavy', 10, 40);
    expect(placed).toHaveLength(1);
    expect(s.waiting()).toBe(9);
    // The light app finds the worker the heavy one is not on.
    const victim = s.place('app_light', 'app_light@1', ls)!;
    expect(victim).not.toBe(placed[0]);
  });

  it('with more workers, a heavy hot app spreads over all but one and leaves one for the others', () => {
    const s = createScheduler();
    const ls = lanes(4);
    s.admit('app_heavy', 4, () => {});
    s.done('app_heavy', 40);
    const placed = flood(s, ls, 'app_heavy', 10, 40);
    expect(placed).toHaveLength(3);
    expect(new Set(placed.map((l) => l.index)).size).toBe(3);
    const free = ls.find((l) => l.jobs.size === 0)!;
    expect(s.place('app_light', 'app_light@1', ls)).toBe(free);
  });

  it('never spreads an app not measured yet: a first burst of floods leaves the other workers free', () => {
    const s = createScheduler();
    const ls = lanes(2);
    const [first] = topTwo('app_new@1', ls);
    const placed = flood(s, ls, 'app_new', 10, 0);
    expect(placed.every((l) => l === first)).toBe(true);
  });

  it('a hot app stops spreading once its requests end', () => {
    const s = createScheduler();
    const ls = lanes(2);
    s.admit('app_burst', 2, () => {});
    s.done('app_burst', 0.05);
    const placed = flood(s, ls, 'app_burst', 6, 0.05);
    expect(new Set(placed.map((l) => l.index)).size).toBe(2);
    for (let i = 0; i < 6; i++) s.done('app_burst', 0.05);
    for (const l of ls) { l.jobs.clear(); l.queuedMs = 0; }
    const [first] = topTwo('app_burst@1', ls);
    expect(flood(s, ls, 'app_burst', 2, 0.05).every((l) => l === first)).toBe(true);
  });
});
