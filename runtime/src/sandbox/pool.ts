/**
 * @module sandbox/pool
 * The isolates of one worker, by app version: idle ones ready for the next request, busy ones
 * serving one request each (at most `poolMax` per version, so one version cannot take the whole
 * worker), requests waiting for one, and the worker's heap budget (least recently used idle
 * isolates give way past it). Starting an isolate is cold-start.ts's job; this module only keeps
 * them.
 */
import type { WorkerLimits } from '../config/config.ts';
import type { KillReason, Slot } from './slot.ts';

interface VersionEntry {
  idle: Slot[];
  /** Busy slots, and places held by cold starts under way. */
  busy: number;
  waiters: Array<(slot: Slot | null) => void>;
}

export function createPool(limits: Pick<WorkerLimits, 'poolMax' | 'isolateBudgetMb' | 'isolateIdleMs'>, now: () => number) {
  const versions = new Map<string, VersionEntry>();
  const budgetBytes = limits.isolateBudgetMb * 1024 * 1024;
  const entry = (key: string): VersionEntry => {
    let e = versions.get(key);
    if (e === undefined) {
      e = { idle: [], busy: 0, waiters: [] };
      versions.set(key, e);
    }
    return e;
  };

  const heapTotal = (): number => {
    let total = 0;
    for (const e of versions.values()) for (const slot of e.idle) total += slot.heapBytes;
    return total;
  };

  const evictToBudget = (): void => {
    let total = heapTotal();
    if (total <= budgetBytes) return;
    const idle = [...versions.values()].flatMap((e) => e.idle.map((slot) => ({ slot, e }))).sort((a, b) => a.slot.lastUsed - b.slot.lastUsed);
    for (const { slot, e } of idle) {
      if (total <= budgetBytes) break;
      total -= slot.heapBytes;
      e.idle.splice(e.idle.indexOf(slot), 1);
      slot.dispose('evicted');
    }
  };

  return {
    /**
     * A warm slot of `key` (now busy), `'start'` when there is room for a new one (the place is
     * held until `started` or `abandon`), or `'full'` when the caller must `wait`.
     */
    take(key: string): Slot | 'start' | 'full' {
      const e = entry(key);
      const warm = e.idle.pop();
      if (warm !== undefined) {
        e.busy++;
        return warm;
      }
      if (e.busy >= limits.poolMax) return 'full';
      e.busy++;
      return 'start';
    },
    /** A place taken for a cold start that failed. */
    abandon(key: string): void {
      const e = entry(key);
      e.busy--;
      const waiter = e.waiters.shift();
      // Room for another start: the waiter retries.
      waiter?.(null);
    },
    /** Waits for a slot of `key`; `null` means a place became free (take again). */
    wait(key: string, waiter: (slot: Slot | null) => void): () => void {
      const e = entry(key);
      e.waiters.push(waiter);
      return () => {
        const i = e.waiters.indexOf(waiter);
        if (i !== -1) e.waiters.splice(i, 1);
      };
    },
    /** A request is done with `slot`: to the next waiter, or idle (disposed ones free their place). */
    release(key: string, slot: Slot): void {
      const e = entry(key);
      slot.lastUsed = now();
      slot.handler = null;
      if (slot.disposed) {
        e.busy--;
        e.waiters.shift()?.(null);
        return;
      }
      const waiter = e.waiters.shift();
      if (waiter !== undefined) return waiter(slot);
      e.busy--;
      e.idle.push(slot);
      if (slot.heapCheckedAt === 0 || now() - slot.heapCheckedAt > 1_000) {
        slot.measureHeap(now());
        evictToBudget();
      }
    },
    /** Disposes isolates idle for longer than the limit. */
    sweep(): void {
      const cutoff = now() - limits.isolateIdleMs;
      for (const [key, e] of versions) {
        e.idle = e.idle.filter((slot) => {
          if (slot.lastUsed >= cutoff && !slot.disposed) return true;
          slot.dispose('idle');
          return false;
        });
        if (e.idle.length === 0 && e.busy === 0 && e.waiters.length === 0) versions.delete(key);
      }
    },
    stats(): { isolates: number; heapBytes: number; versions: number } {
      let isolates = 0;
      for (const e of versions.values()) isolates += e.idle.length + e.busy;
      return { isolates, heapBytes: heapTotal(), versions: versions.size };
    },
    disposeAll(reason: KillReason = 'shutdown'): void {
      for (const e of versions.values()) for (const slot of e.idle) slot.dispose(reason);
      versions.clear();
    },
  };
}

export type Pool = ReturnType<typeof createPool>;
