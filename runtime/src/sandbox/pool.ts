/**
 * @module sandbox/pool
 * Isolates of one worker: a pool per app version that grows under concurrency up to `poolMax`
 * (one request per isolate at a time), shrinks when idle, and gives way least-recently-used when
 * the worker's isolate heap passes its budget. A spare blank isolate (guest runtime already set
 * up) is kept ready so that a cold start only compiles and evaluates the bundle. Compiled-code
 * caches come from this process's own first compile of each bundle, never from outside.
 */
import { readFileSync } from 'node:fs';
import type { WorkerLimits } from '../config.ts';
import type { VersionRef } from '../protocol/messages.ts';
import type { Executor } from './executor.ts';
import type { SlotHandler } from './host-bridge.ts';
import type { ExternalCopy, Ivm } from './ivm.ts';
import { createBlankSlot, type Slot } from './slot.ts';
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

export function createPool(deps: PoolDeps) {
  const versions = new Map<string, VersionEntry>();
  const cachedData = new Map<string, ExternalCopy<ArrayBuffer>>();
  let spare: Slot | null = null;
  let spareWanted = false;
  const budgetBytes = deps.limits.isolateBudgetMb * 1024 * 1024;
  const unlimited = { usedUs: 0, limitUs: Infinity };

  const blank = (): Slot => createBlankSlot(deps.ivm, deps.guestSource, {
    memoryLimitMb: deps.limits.isolateMemoryMb,
    allowWasm: deps.limits.allowWasm,
    onCatastrophicError: deps.onCatastrophicError,
  });

  const ensureSpare = (): void => {
    if (spare !== null || spareWanted) return;
    spareWanted = true;
    setImmediate(() => {
      void deps.executor.submit({ account: { ...unlimited }, onOverBudget: () => {}, run: async () => {
        spareWanted = false;
        if (spare === null) spare = blank();
      } }).catch(() => { spareWanted = false; });
    });
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

  const coldStart = async (ref: VersionRef, handler: SlotHandler, startupAccount: { usedUs: number; limitUs: number }): Promise<Slot> => {
    const slot = spare ?? await deps.executor.submit({ account: { ...unlimited }, onOverBudget: () => {}, run: async () => blank() });
    if (spare === slot) spare = null;
    ensureSpare();
    slot.key = ref.key;
    slot.handler = handler;
    let stopped: ReturnType<typeof stopSlot> | null = null;
    const guard = { account: startupAccount, onOverBudget: () => { stopped = stopSlot(slot, 'startup', true, deps.now); } };
    try {
      const source = readFileSync(ref.bundlePath, 'utf8');
      const linked = await deps.executor.submit({ ...guard, run: async () => slot.compile(source, cachedData.get(ref.sha256)) });
      if (linked.cachedData !== undefined && !cachedData.has(ref.sha256)) cachedData.set(ref.sha256, linked.cachedData);
      if (cachedData.size > 64) cachedData.delete(cachedData.keys().next().value as string);
      await deps.executor.submit({ ...guard, run: linked.evaluate });
      const problem = await deps.executor.submit({ ...guard, run: linked.bind });
      if (problem !== null) throw new StartupError('error', problem);
      return slot;
    } catch (err) {
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
            const slot = await coldStart(ref, handler, startupAccount);
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
      const slot = await coldStart(ref, handler, account);
      slot.key = null;
      return slot;
    },

    warmSpare: ensureSpare,

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
      spare?.dispose('shutdown');
      for (const entry of versions.values()) for (const slot of entry.idle) slot.dispose('shutdown');
      versions.clear();
    },
  };
}

export type Pool = ReturnType<typeof createPool>;
