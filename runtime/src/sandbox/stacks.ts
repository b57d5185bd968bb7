/**
 * @module sandbox/stacks
 * A version's stacks as the author reads them: the worker maps them through the version's source
 * map (the file beside its bundle in the node's data dir) when a request's lines are handed to the
 * supervisor, never while the guest runs (mapping is the platform's work, not charged to the
 * request's CPU budget). The map is parsed the first time one of the version's stacks is mapped in
 * this worker and kept (stacks/source-maps.ts). A map that cannot be used says so once per worker,
 * in the app's log; its stacks keep the bundle's positions.
 */
import type { LogError } from '@platform/sdk';
import type { TraceMap } from '@jridgewell/trace-mapping';
import { mapCallFrame, toLogError, type CallFrame, type RawError } from '../stacks/map.ts';
import { createSourceMaps, type SourceMaps } from '../stacks/source-maps.ts';

export interface VersionStacks {
  /** The error as data, its frames mapped when the version has a usable map. */
  error(raw: RawError): LogError;
  /** A profile frame in the author's file (unchanged without a map). */
  callFrame(frame: CallFrame): CallFrame;
  /** Why the version's map is not used, the first time this worker finds out; else null. */
  takeProblem(): string | null;
}

/** The worker's maps (one per process), and the paths whose problem the app log has been told. */
const maps: SourceMaps = createSourceMaps();
const told = new Set<string>();

export function versionStacks(sourceMapPath: string | null, within: SourceMaps = maps): VersionStacks {
  let map: TraceMap | null | undefined;
  let problem: string | null = null;
  const current = (): TraceMap | null => {
    if (map !== undefined) return map;
    const loaded = sourceMapPath === null ? null : within.get(sourceMapPath);
    if (loaded !== null && !loaded.ok) problem = loaded.problem;
    map = loaded !== null && loaded.ok ? loaded.map : null;
    return map;
  };
  return {
    error: (raw) => toLogError(raw, current()),
    callFrame(frame) {
      const m = current();
      return m === null ? frame : mapCallFrame(frame, m);
    },
    takeProblem() {
      current();
      // Said once per worker (a profile's frames may have found the problem first: the lines tell it).
      if (problem === null || sourceMapPath === null || told.has(sourceMapPath)) return null;
      if (told.size >= 10_000) told.clear();
      told.add(sourceMapPath);
      return `This version's source map is not used (${problem}): its stacks name positions in the bundle.`;
    },
  };
}

/** What a CPU stop caught: where the guest was (its stack), as the limit line's error. */
export function stoppedAt(stack: string | null, budgetMs: number): RawError | null {
  return stack === null ? null : { name: 'PlatformRuntimeCpuLimitError', message: `stopped here, past its ${budgetMs} ms CPU budget`, stack };
}
