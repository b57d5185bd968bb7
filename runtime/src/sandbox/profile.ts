/**
 * @module sandbox/profile
 * A sampled CPU profile of one request, in Chrome DevTools' `.cpuprofile` format, from isolated-vm's
 * CPU profiler (`isolate.startCpuProfiler` / `stopCpuProfiler`). isolated-vm starts V8's profiler
 * on each entry into the isolate while a profile is open (on the thread that enters) and keeps one
 * profile per entry; a request enters several times (its start, then each timer or fetch result),
 * so the entries are merged here into one tree under one root, samples in time order.
 *
 * Profiling costs: starting V8's profiler on an entry logs the isolate's code first, about 1–3 ms of
 * CPU for a small bundle and ~24 ms for a 1 MB SDK bundle (test/bench/cpu-profile.bench.ts), on
 * every entry, inside the isolate's CPU clock.
 * So that the profiled request keeps its budget, empty entries under the profiler measure that
 * cost first (`entryCostNs`, the cheaper of two: the first entry costs more) and it is taken off the
 * request's CPU account on each of its entries: the budget and the report count the guest's CPU,
 * as for any other request (issue 26: ≤ 55 ms against 50). Profiling
 * is used only for the next request of a version that was just stopped at its CPU budget, at most
 * once a minute per version (supervisor/profiles.ts): other requests pay nothing.
 */
import type { Isolate } from './ivm.ts';

interface IvmNode {
  id: number;
  hitCount: number;
  children: number[];
  callFrame: { functionName: string; url: string; scriptId: number; lineNumber: number; columnNumber: number };
}

interface IvmProfile {
  startTime: number;
  endTime: number;
  samples: number[];
  /** isolated-vm gives each sample's time since the profile's start (not since the previous sample). */
  timeDeltas: number[];
  nodes: IvmNode[];
}

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number; columnNumber: number };
  hitCount: number;
  children: number[];
}

/** What DevTools opens: times in microseconds, `timeDeltas` between consecutive samples. */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Profiles larger than this (as JSON) are not kept: the limit line says so instead. */
export const PROFILE_MAX_CHARS = 2 * 1024 * 1024;

/**
 * One profile of every entry: one `(root)`, each entry's tree below it, samples in time order.
 * @example mergeProfiles((await isolate.stopCpuProfiler('req_1')).map((t) => t.profile))
 */
export function mergeProfiles(profiles: readonly IvmProfile[]): CpuProfile | null {
  const used = profiles.filter((p) => p.nodes.length > 0);
  if (used.length === 0) return null;
  const root: CpuProfileNode = { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [] };
  const nodes: CpuProfileNode[] = [root];
  const timed: Array<{ at: number; node: number }> = [];
  let nextId = 2;
  for (const p of used) {
    const childIds = new Set(p.nodes.flatMap((n) => n.children));
    const ownRoot = p.nodes.find((n) => !childIds.has(n.id))?.id;
    const ids = new Map<number, number>();
    for (const n of p.nodes) ids.set(n.id, n.id === ownRoot ? root.id : nextId++);
    for (const n of p.nodes) {
      if (n.id === ownRoot) {
        root.children.push(...n.children.map((c) => ids.get(c)!));
        continue;
      }
      nodes.push({
        id: ids.get(n.id)!,
        // V8 numbers lines and columns from 1 here; the DevTools format from 0.
        callFrame: { functionName: n.callFrame.functionName, scriptId: String(n.callFrame.scriptId), url: n.callFrame.url, lineNumber: n.callFrame.lineNumber - 1, columnNumber: n.callFrame.columnNumber - 1 },
        hitCount: 0,
        children: n.children.map((c) => ids.get(c)!),
      });
    }
    p.samples.forEach((s, i) => timed.push({ at: p.startTime + (p.timeDeltas[i] ?? 0), node: ids.get(s) ?? root.id }));
  }
  timed.sort((a, b) => a.at - b.at);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const t of timed) byId.get(t.node)!.hitCount++;
  const startTime = Math.min(...used.map((p) => p.startTime));
  const endTime = Math.max(...used.map((p) => p.endTime));
  let previous = startTime;
  const timeDeltas = timed.map((t) => {
    const delta = t.at - previous;
    previous = t.at;
    return delta;
  });
  return { nodes, startTime, endTime, samples: timed.map((t) => t.node), timeDeltas };
}

export interface RequestProfiler {
  /** What the profiler adds to each entry into the isolate, in CPU nanoseconds (measured once). */
  readonly entryCostNs: number;
  /**
   * Ends profiling and answers the merged profile as JSON (null when none or too large), each
   * frame passed through `mapFrame` (the version's source map: DevTools then names the author's files).
   */
  collect(mapFrame?: (frame: CpuProfileNode['callFrame']) => CpuProfileNode['callFrame']): Promise<string | null>;
  /** Ends profiling without waiting for the profile (the request ended otherwise). */
  discard(): void;
}

/**
 * Opens a profile on `isolate` for one request; every entry until `collect` or `discard` is sampled.
 * `emptyEntry` enters the isolate without running guest code (the measure of `entryCostNs`).
 */
export function startRequestProfiler(isolate: Isolate, title: string, emptyEntry: () => void): RequestProfiler {
  isolate.startCpuProfiler(title);
  // No limit may stop the measure: the last request's limit may lie below the clock now.
  isolate.setCpuTimeLimit(undefined);
  // The first entry under a fresh profiler costs about twice what each later one does (measured:
  // 13–15 ms against 6–7 ms for a bundle of 3,000 functions, under load or not). Crediting that
  // first figure to every entry let a profiled request compute 5–9 ms past its budget, and the
  // report counted the profiler's cost as the guest's (67–77 ms "used" against 50). So two empty
  // entries run, and the cheaper one is the measure: the credit errs low, never in the guest's favour.
  const entryCost = (): number => {
    const before = isolate.cpuTime;
    emptyEntry();
    return Number(isolate.cpuTime - before);
  };
  const entryCostNs = Math.min(entryCost(), entryCost());
  let open = true;
  const stop = (): Promise<IvmProfile[]> => {
    open = false;
    if (isolate.isDisposed) return Promise.resolve([]);
    return isolate.stopCpuProfiler(title).then((threads) => threads.map((t) => t.profile as unknown as IvmProfile), () => []);
  };
  return {
    entryCostNs,
    async collect(mapFrame) {
      if (!open) return null;
      const merged = mergeProfiles(await stop());
      if (merged === null) return null;
      if (mapFrame !== undefined) for (const node of merged.nodes) node.callFrame = mapFrame(node.callFrame);
      const json = JSON.stringify(merged);
      return json.length > PROFILE_MAX_CHARS ? null : json;
    },
    discard() {
      if (open) void stop();
    },
  };
}
