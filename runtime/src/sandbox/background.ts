/**
 * @module sandbox/background
 * Work a worker does between requests, one piece per turn of its event loop so that requests
 * arriving meanwhile go first: keep a blank isolate ready (the guest runtime already set up, so a
 * cold start only loads the bundle), refresh the guest runtime's code cache once from an isolate
 * that served a request, and prepare bundles' cached script forms (bundle-script.ts; compiled on
 * isolated-vm's own thread, off the serving thread).
 */
import { createBundlePlans, PLAN_LIMITS } from './bundle-plans.ts';
import { toClassicScript } from './bundle-script.ts';
import type { Ivm } from './ivm.ts';
import { produceScriptCache } from './script-cache.ts';
import type { Slot } from './slot.ts';

/** How bundles were started, for tests and diagnosis. */
export interface BundleCounts {
  moduleStarts: number;
  scriptStarts: number;
  /** Script forms prepared (converted, compiled, code cache produced). */
  prepared: number;
  /** Bundles left as modules: conversion refused or the script form did not compile. */
  refused: number;
  /** Code caches V8 rejected (the plan is dropped and prepared again). */
  cacheRejected: number;
}

/** Converts a bundle started as a module to its script form and produces its code cache (or records why not). */
async function prepareScript(deps: { ivm: Ivm; isolateMemoryMb: number }, plans: ReturnType<typeof createBundlePlans>, counts: BundleCounts, sha: string, source: string): Promise<void> {
  const conversion = toClassicScript(source);
  if (!conversion.ok) {
    counts.refused++;
    return plans.set(sha, { mode: 'module', reason: conversion.reason });
  }
  try {
    const cachedData = await produceScriptCache(deps.ivm, conversion.script, deps.isolateMemoryMb);
    counts.prepared++;
    plans.set(sha, { mode: 'script', script: conversion.script, cachedData });
  } catch (err) {
    counts.refused++;
    plans.set(sha, { mode: 'module', reason: `its script form does not compile: ${err instanceof Error ? err.message : 'unknown error'}` });
  }
}

export function createBackground(deps: { ivm: Ivm; isolateMemoryMb: number; blank: () => Slot }) {
  const plans = createBundlePlans();
  const counts: BundleCounts = { moduleStarts: 0, scriptStarts: 0, prepared: 0, refused: 0, cacheRejected: 0 };
  /** Bundles started as modules whose script form is to be prepared: sha256 → source. */
  const toPrepare = new Map<string, string>();
  let spare: Slot | null = null;
  let refreshFrom: Slot | null = null;
  let refreshed = false;
  let scheduled = false;
  let running = false;
  const idleWaiters: Array<() => void> = [];

  const nextTask = (): (() => Promise<void> | void) | null => {
    if (spare === null) return () => { try { spare = deps.blank(); } catch { /* the next cold start makes its own */ } };
    if (refreshFrom !== null) {
      const source = refreshFrom;
      refreshFrom = null;
      return () => {
        try {
          if (!source.disposed) {
            source.refreshGuestCache();
            refreshed = true;
          }
        } catch {
          // disposed meanwhile: the next released slot serves instead
        }
      };
    }
    const first = toPrepare.entries().next();
    if (first.done !== true) {
      const [sha, source] = first.value;
      toPrepare.delete(sha);
      return () => prepareScript(deps, plans, counts, sha, source);
    }
    return null;
  };

  const step = async (): Promise<void> => {
    scheduled = false;
    const task = nextTask();
    if (task === null) {
      for (const resolve of idleWaiters.splice(0)) resolve();
      return;
    }
    running = true;
    try {
      await task();
    } finally {
      running = false;
    }
    kick();
  };

  /** Schedules the next piece of work (if any) for a later turn of the event loop. */
  const kick = (): void => {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(() => { void step(); });
  };

  return {
    plans,
    counts,
    kick,
    /** Whether a blank isolate is ready (it counts among the worker's live isolates). */
    get hasSpare(): boolean { return spare !== null; },
    /** The spare blank isolate, if one is ready (a new one is made later). */
    takeSpare(): Slot | null {
      const s = spare;
      spare = null;
      return s;
    },
    /** A slot that served a request: its isolate can refresh the guest runtime's code cache (once). */
    served(slot: Slot): void {
      if (!refreshed && refreshFrom === null) refreshFrom = slot;
    },
    queuePreparation(sha: string, source: string): void {
      if (toPrepare.has(sha) || plans.get(sha) !== undefined) return;
      toPrepare.set(sha, source);
      let chars = 0;
      for (const pending of toPrepare.values()) chars += pending.length;
      for (const [oldest, pending] of toPrepare) {
        if (toPrepare.size <= PLAN_LIMITS.entries && chars <= PLAN_LIMITS.sourceChars) break;
        toPrepare.delete(oldest);
        chars -= pending.length;
      }
    },
    /** Resolves once nothing is left to do (tests). */
    idle(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        kick();
      });
    },
    dispose(): void {
      toPrepare.clear();
      spare?.dispose('shutdown');
      spare = null;
    },
  };
}

export type Background = ReturnType<typeof createBackground>;
