/**
 * @module sandbox/pool
 * Isolates of one worker: a pool per app version that grows under concurrency up to `poolMax`
 * (one request per isolate at a time), shrinks when idle, and gives way least-recently-used when
 * the worker's isolate heap passes its budget. A spare blank isolate (guest runtime already set
 * up) is kept ready so that a cold start only compiles and evaluates the bundle.
 *
 * A bundle's first start here runs it as a module. Between requests its script form is then
 * prepared (bundle-script.ts: converted once, its code cache produced by this process, never taken
 * from outside); later starts compile that script with the cache, which is what makes them fast
 * (isolated-vm ignores code caches for modules). Bundles the conversion refuses stay modules.
 */
import { readFileSync } from 'node:fs';
import type { WorkerLimits } from '../config.ts';
import type { VersionRef } from '../protocol/messages.ts';
import { createBundlePlans, PLAN_LIMITS } from './bundle-plans.ts';
import { toClassicScript } from './bundle-script.ts';
import type { Executor } from './executor.ts';
import type { SlotHandler } from './host-bridge.ts';
import type { Ivm } from './ivm.ts';
import { produceScriptCache } from './script-cache.ts';
import { createBlankSlot, type LoadedBundle, type Slot } from './slot.ts';
import { stopSlot, type StopResult } from './stop.ts';

/** Why a cold start failed; `guestStack` is the guest's stack when stopped over budget. */
export class StartupError extends Error {
  readonly kind: 'cpu' | 'memory' | 'error';
  readonly guestStack: string | null;
  constructor(kind: 'cpu' | 'memory' | 'error', message: string, guestStack: string | null = null) {
    super(message);
    this.kind = kind;
    this.guestStack = guestStack;
  }
}

/** A waiter receives a released slot, or 'retry' when a slot left the pool (room for a cold start). */
type Waiter = (slot: Slot | 'retry') => void;

interface VersionEntry {
  ref: VersionRef;
  idle: Slot[];
  busy: Set<Slot>;
  waiters: Waiter[];
}

export interface PoolDeps {
  ivm: Ivm;
  guestSource: string;
  limits: WorkerLimits;
  executor: Executor;
  now: () => number;
  onCatastrophicError: (message: string) => void;
}

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

export function createPool(deps: PoolDeps) {
  const versions = new Map<string, VersionEntry>();
  const plans = createBundlePlans();
  /** Bundles started as modules whose script form is to be prepared: sha256 → source. */
  const toPrepare = new Map<string, string>();
  const counts: BundleCounts = { moduleStarts: 0, scriptStarts: 0, prepared: 0, refused: 0, cacheRejected: 0 };
  let spare: Slot | null = null;
  let spareWanted = false;
  let backgroundScheduled = false;
  const idleWaiters: Array<() => void> = [];
  /** A slot that served a request, to refresh the guest runtime's code cache from (once). */
  let guestCacheSource: Slot | null = null;
  let guestCacheRefreshed = false;
  const budgetBytes = deps.limits.isolateBudgetMb * 1024 * 1024;
  const unlimited = { usedUs: 0, limitUs: Infinity };

  const blank = (): Slot => createBlankSlot(deps.ivm, deps.guestSource, {
    memoryLimitMb: deps.limits.isolateMemoryMb,
    allowWasm: deps.limits.allowWasm,
    onCatastrophicError: deps.onCatastrophicError,
  });

  const prepareScript = async (sha: string, source: string): Promise<void> => {
    const conversion = toClassicScript(source);
    if (!conversion.ok) {
      counts.refused++;
      return plans.set(sha, { mode: 'module', reason: conversion.reason });
    }
    try {
      const cachedData = await produceScriptCache(deps.ivm, conversion.script, deps.limits.isolateMemoryMb);
      counts.prepared++;
      plans.set(sha, { mode: 'script', script: conversion.script, cachedData });
    } catch (err) {
      counts.refused++;
      plans.set(sha, { mode: 'module', reason: `its script form does not compile: ${err instanceof Error ? err.message : 'unknown error'}` });
    }
  };

  /** The next piece of background work, or null; tasks never reject (a failure is retried later or not needed). */
  const nextTask = (): (() => Promise<void>) | null => {
    if (spareWanted && spare === null) {
      return async () => {
        spareWanted = false;
        // On failure the next cold start makes its isolate itself.
        try { if (spare === null) spare = blank(); } catch { /* see above */ }
      };
    }
    if (guestCacheSource !== null) {
      const source = guestCacheSource;
      guestCacheSource = null;
      return async () => {
        try {
          if (source.disposed) return;
          source.refreshGuestCache();
          guestCacheRefreshed = true;
        } catch {
          // The isolate went away meanwhile: the next released slot serves instead.
        }
      };
    }
    if (toPrepare.size > 0 && !deps.executor.busy && deps.executor.queued === 0) {
      const [sha, source] = toPrepare.entries().next().value as [string, string];
      toPrepare.delete(sha);
      return () => prepareScript(sha, source);
    }
    return null;
  };

  /**
   * Work done between requests, one slice at a time: the spare isolate, the guest runtime's code
   * cache (once), then script forms. It is only started after a request ended (or a start failed),
   * never during a cold start: the executor runs a queued slice as soon as the current one ends,
   * before the code awaiting that one continues, so a slice queued during a cold start delays that
   * request's answer (the spare's ~2 ms did, before). Script forms (~30 ms per MB of bundle) wait
   * until no slice is running or queued; the next request's end tries again.
   */
  const runBackground = (): void => {
    if (backgroundScheduled || ((!spareWanted || spare !== null) && guestCacheSource === null && toPrepare.size === 0 && idleWaiters.length === 0)) return;
    backgroundScheduled = true;
    setImmediate(() => {
      const task = nextTask();
      if (task === null) {
        backgroundScheduled = false;
        if (toPrepare.size === 0) for (const resolve of idleWaiters.splice(0)) resolve();
        return;
      }
      void deps.executor.submit({ account: { ...unlimited }, onOverBudget: () => {}, run: task }).catch(() => {}).finally(() => {
        backgroundScheduled = false;
        runBackground();
      });
    });
  };

  const ensureSpare = (): void => {
    if (spare === null) spareWanted = true;
    runBackground();
  };

  const queuePreparation = (sha: string, source: string): void => {
    if (toPrepare.has(sha)) return;
    toPrepare.set(sha, source);
    let chars = 0;
    for (const pending of toPrepare.values()) chars += pending.length;
    for (const [oldest, pending] of toPrepare) {
      if (toPrepare.size <= PLAN_LIMITS.entries && chars <= PLAN_LIMITS.sourceChars) break;
      toPrepare.delete(oldest);
      chars -= pending.length;
    }
  };

  /**
   * Compiles `ref`'s bundle into `slot` (host work, in the start's first slice): the prepared
   * script with its code cache, or the module. A module that compiled is queued for preparation:
   * the conversion relies on V8 having accepted it as a module (no module early error).
   */
  const load = (slot: Slot, ref: VersionRef, source: string | null, prepare: boolean): LoadedBundle => {
    const plan = plans.get(ref.sha256);
    if (plan?.mode === 'script') {
      counts.scriptStarts++;
      const loaded = slot.compileScript(plan.script, plan.cachedData);
      if (loaded.cachedDataRejected) {
        counts.cacheRejected++;
        plans.delete(ref.sha256);
      }
      return loaded;
    }
    counts.moduleStarts++;
    const loaded = slot.compileModule(source ?? readFileSync(ref.bundlePath, 'utf8'));
    if (plan === undefined && prepare && source !== null) queuePreparation(ref.sha256, source);
    return loaded;
  };

  const allSlots = function* (): Generator<{ slot: Slot; entry: VersionEntry }> {
    for (const entry of versions.values()) for (const slot of entry.idle) yield { slot, entry };
  };

  const heapTotal = (): number => {
    let total = 0;
    for (const entry of versions.values()) {
      for (const slot of entry.idle) total += slot.heapBytes;
      for (const slot of entry.busy) total += slot.heapBytes;
    }
    return total;
  };

  const evictToBudget = (): void => {
    let total = heapTotal();
    if (total <= budgetBytes) return;
    const idle = [...allSlots()].sort((a, b) => a.slot.lastUsed - b.slot.lastUsed);
    for (const { slot, entry } of idle) {
      if (total <= budgetBytes) break;
      total -= slot.heapBytes;
      entry.idle.splice(entry.idle.indexOf(slot), 1);
      slot.dispose('evicted');
    }
  };

  const coldStart = async (ref: VersionRef, handler: SlotHandler, startupAccount: { usedUs: number; limitUs: number }, prepare: boolean): Promise<Slot> => {
    const slot = spare ?? await deps.executor.submit({ account: { ...unlimited }, onOverBudget: () => {}, run: async () => blank() });
    if (spare === slot) spare = null;
    // A new spare is made between requests (runBackground), not during this start.
    spareWanted = true;
    slot.key = ref.key;
    slot.handler = handler;
    let stopped: ReturnType<typeof stopSlot> | null = null;
    const guard = { account: startupAccount, onOverBudget: () => { stopped = stopSlot(slot, 'startup', true, deps.now); } };
    try {
      // Script starts need no file read: the plan holds the converted source.
      const source = plans.get(ref.sha256)?.mode === 'script' ? null : readFileSync(ref.bundlePath, 'utf8');
      const linked = await deps.executor.submit({ ...guard, run: async () => load(slot, ref, source, prepare) });
      await deps.executor.submit({ ...guard, run: linked.evaluate });
      const problem = await deps.executor.submit({ ...guard, run: linked.bind });
      if (problem !== null) throw new StartupError('error', problem);
      return slot;
    } catch (err) {
      runBackground();
      const result = stopped === null ? null : await stopped;
      const disposedByLimit = slot.disposed && slot.killReason === null;
      slot.dispose('startup');
      if (err instanceof StartupError) throw err;
      if (result !== null) throw new StartupError('cpu', 'The bundle used more CPU than allowed while starting', (result as StopResult).stack);
      if (disposedByLimit) throw new StartupError('memory', 'The bundle used more memory than allowed while starting');
      throw new StartupError('error', `The bundle failed to start: ${err instanceof Error ? err.message : 'unknown error'}`);
    } finally {
      slot.handler = null;
    }
  };

  /** Holds a pool place while a cold start is under way. */
  const createPlaceholder = (): Slot => ({ heapBytes: 0 }) as Slot;

  return {
    /**
     * A slot for one request of `ref`: an idle warm one, a cold start, or the next one released
     * (null when `signal` fires first).
     */
    async acquire(ref: VersionRef, handler: SlotHandler, startupAccount: { usedUs: number; limitUs: number }, signal: AbortSignal): Promise<{ slot: Slot; cold: boolean } | null> {
      for (;;) {
        let entry = versions.get(ref.key);
        if (entry === undefined) {
          entry = { ref, idle: [], busy: new Set(), waiters: [] };
          versions.set(ref.key, entry);
        }
        const warm = entry.idle.pop();
        if (warm !== undefined) {
          entry.busy.add(warm);
          return { slot: warm, cold: false };
        }
        if (entry.busy.size < deps.limits.poolMax) {
          const placeholder = createPlaceholder();
          entry.busy.add(placeholder);
          try {
            const slot = await coldStart(ref, handler, startupAccount, true);
            entry.busy.add(slot);
            return { slot, cold: true };
          } finally {
            entry.busy.delete(placeholder);
          }
        }
        const e = entry;
        const got = await new Promise<Slot | 'retry' | null>((resolve) => {
          const waiter: Waiter = (slot) => {
            signal.removeEventListener('abort', onAbort);
            resolve(slot);
          };
          const onAbort = (): void => {
            e.waiters.splice(e.waiters.indexOf(waiter), 1);
            resolve(null);
          };
          signal.addEventListener('abort', onAbort, { once: true });
          e.waiters.push(waiter);
        });
        if (got === null) return null;
        if (got !== 'retry') return { slot: got, cold: false };
      }
    },

    /** Returns a slot after its request; disposed slots leave the pool. */
    release(slot: Slot): void {
      const entry = slot.key === null ? undefined : versions.get(slot.key);
      slot.handler = null;
      if (!guestCacheRefreshed && !slot.disposed) guestCacheSource = slot;
      runBackground();
      if (entry === undefined) return slot.dispose('shutdown');
      const now = deps.now();
      slot.lastUsed = now;
      if (slot.disposed) {
        entry.busy.delete(slot);
        entry.waiters.shift()?.('retry');
        return;
      }
      const waiter = entry.waiters.shift();
      if (waiter !== undefined) return waiter(slot);
      entry.busy.delete(slot);
      if (now - slot.heapCheckedAt > 1000) slot.measureHeap(now);
      entry.idle.push(slot);
      evictToBudget();
    },

    /** Disposes idle slots unused for longer than the idle limit. */
    sweep(): void {
      const cutoff = deps.now() - deps.limits.isolateIdleMs;
      for (const [key, entry] of versions) {
        entry.idle = entry.idle.filter((slot) => {
          if (slot.lastUsed >= cutoff) return true;
          slot.dispose('idle');
          return false;
        });
        if (entry.idle.length === 0 && entry.busy.size === 0 && entry.waiters.length === 0) versions.delete(key);
      }
    },

    /** A fresh isolate with `ref` loaded that belongs to no pool (manifest reads); dispose it after use. */
    async startDetached(ref: VersionRef, handler: SlotHandler, account: { usedUs: number; limitUs: number }): Promise<Slot> {
      const slot = await coldStart(ref, handler, account, false);
      slot.key = null;
      runBackground();
      return slot;
    },

    warmSpare: ensureSpare,

    bundleCounts: (): Readonly<BundleCounts> => ({ ...counts }),

    /** Resolves once no background work is left to do (the spare made, every script form prepared). */
    settled(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        runBackground();
      });
    },

    stats(): { isolates: number; heapBytes: number; versions: number } {
      let isolates = spare === null ? 0 : 1;
      let heapBytes = 0;
      for (const entry of versions.values()) {
        isolates += entry.idle.length + entry.busy.size;
      }
      heapBytes = heapTotal();
      return { isolates, heapBytes, versions: versions.size };
    },

    disposeAll(): void {
      toPrepare.clear();
      spare?.dispose('shutdown');
      for (const entry of versions.values()) for (const slot of entry.idle) slot.dispose('shutdown');
      versions.clear();
    },
  };
}

export type Pool = ReturnType<typeof createPool>;
