/**
 * @module supervisor/scheduler
 * Which worker runs a request, and when. A worker runs guest code one request at a time, so a
 * request waits behind whatever its worker already has. The scheduler keeps that wait short for
 * everyone:
 *
 * - each app's CPU per request is tracked (moving average); an app above `heavyMs` is *heavy*;
 * - a heavy app may have at most `workers - 1` requests running at once (at least 1): at least one
 *   worker stays free of it, and its other requests wait here, in order, not in a worker's queue;
 * - a request goes to the first of its version's two rendezvous workers (placement.ts: warm
 *   isolates) whose queued CPU is under `busyMs`, else to the worker with the least queued CPU;
 * - a *hot* app (measured, and at least `hotRunning` of its requests admitted at once) is served by every worker:
 *   its request goes to the worker with the least queued CPU (then the fewest requests, then the
 *   rendezvous order), so each worker keeps its own warm isolates of it and one busy app uses
 *   the node's cores instead of queueing on one worker while the others idle.
 *
 * So one app's flood of CPU-heavy requests takes at most all workers but one, and the others' requests
 * find a worker that is not behind it.
 */
import { rendezvousScore, topTwo } from './placement.ts';

export interface Lane {
  index: number;
  /** Expected CPU milliseconds of the requests this worker has not finished. */
  queuedMs: number;
  /** The requests it holds (entered or waiting). */
  readonly jobs: { readonly size: number };
}

export const SCHEDULER = { heavyMs: 5, busyMs: 2, weight: 0.3, maxApps: 10_000, hotRunning: 4 } as const;

export type SchedulerOptions = { heavyMs: number; busyMs: number; weight: number; maxApps: number; hotRunning: number };

/** The lane a hot app's request waits least on: least queued CPU, then fewest requests, then rank. */
function leastLoaded<L extends Lane>(key: string, lanes: readonly L[]): L | null {
  let best: L | null = null;
  for (const lane of lanes) {
    if (best === null || lane.queuedMs < best.queuedMs) best = lane;
    else if (lane.queuedMs > best.queuedMs) continue;
    else if (lane.jobs.size < best.jobs.size) best = lane;
    else if (lane.jobs.size === best.jobs.size && rendezvousScore(key, lane.index) > rendezvousScore(key, best.index)) best = lane;
  }
  return best;
}

interface AppLoad {
  costMs: number | null;
  running: number;
  waiting: Array<() => void>;
}

export function createScheduler(options: SchedulerOptions = SCHEDULER) {
  const apps = new Map<string, AppLoad>();
  const load = (appId: string): AppLoad => {
    let a = apps.get(appId);
    if (a === undefined) {
      a = { costMs: null, running: 0, waiting: [] };
      apps.set(appId, a);
      if (apps.size > options.maxApps) {
        for (const [id, other] of apps) {
          if (other.running === 0 && other.waiting.length === 0) { apps.delete(id); break; }
        }
      }
    }
    return a;
  };

  return {
    /** Expected CPU milliseconds of one request of `appId` (0 until one finished). */
    costOf(appId: string): number {
      return apps.get(appId)?.costMs ?? 0;
    },
    /**
     * Starts `start` now (true) or once `appId` may run another request (false). `workers` is the
     * number of workers its requests could go to.
     */
    admit(appId: string, workers: number, start: () => void): boolean {
      const a = load(appId);
      // An app not measured yet is not held back: its first request may wait on I/O for seconds,
      // and holding its others behind it would stall an ordinary app's first burst.
      const heavy = (a.costMs ?? 0) >= options.heavyMs;
      if (heavy && a.running >= Math.max(1, workers - 1)) {
        a.waiting.push(start);
        return false;
      }
      a.running++;
      start();
      return true;
    },
    /** The worker for a request of version `key` of `appId` (admitted already). */
    place<L extends Lane>(appId: string, key: string, lanes: readonly L[]): L | null {
      // Hot: it has enough requests at once that one worker would run them one behind the other.
      // A version not hot stays on its rendezvous workers: a second worker's cold start (and its
      // isolate's memory) would cost more than a short wait there. An app not measured yet is never
      // hot: a first burst of CPU floods would otherwise land on every worker before admission
      // knows the app is heavy; on its rendezvous workers it leaves the others free.
      const a = apps.get(appId);
      if (a !== undefined && a.costMs !== null && a.running >= options.hotRunning) return leastLoaded(key, lanes);
      const [first, second] = topTwo(key, lanes);
      if (first !== null && first.queuedMs < options.busyMs) return first;
      if (second !== null && second.queuedMs < options.busyMs) return second;
      let best: L | null = first;
      for (const lane of lanes) if (best === null || lane.queuedMs < best.queuedMs) best = lane;
      return best;
    },
    /** A request of `appId` ended after `cpuMs` (null: it never ran): the next waiting one may start. */
    done(appId: string, cpuMs: number | null): void {
      const a = apps.get(appId);
      if (a === undefined) return;
      if (cpuMs !== null) a.costMs = a.costMs === null ? cpuMs : a.costMs + options.weight * (cpuMs - a.costMs);
      a.running = Math.max(0, a.running - 1);
      const next = a.waiting.shift();
      if (next !== undefined) {
        a.running++;
        next();
      }
    },
    /** Heavy: at least `heavyMs` per request on average (admission holds its requests back). */
    isHeavy(appId: string): boolean {
      return (apps.get(appId)?.costMs ?? 0) >= options.heavyMs;
    },
    /**
     * A request of `appId` that ran outside admission (on a handed connection, RUNTIME_HANDOFF)
     * ended after `cpuMs`; true when that made the app heavy.
     */
    observe(appId: string, cpuMs: number): boolean {
      const a = load(appId);
      const was = (a.costMs ?? 0) >= options.heavyMs;
      a.costMs = a.costMs === null ? cpuMs : a.costMs + options.weight * (cpuMs - a.costMs);
      return !was && a.costMs >= options.heavyMs;
    },
    /** Requests waiting for their app's turn (for load reports). */
    waiting(): number {
      let n = 0;
      for (const a of apps.values()) n += a.waiting.length;
      return n;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
