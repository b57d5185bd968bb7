/**
 * @module core/kv/memory-kv
 * The in-process stand-in for Redis: right for one process (the embedded default), wrong for
 * several replicas, which must share state through Redis.
 */
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import type { HitResult, Kv } from './kv.ts';

interface Entry {
  value: string;
  expiresAt: number;
}

// Expired entries are dropped when touched; every SWEEP_EVERY operations a full sweep drops the
// ones nobody touches again, so memory stays bounded by what is live.
const SWEEP_EVERY = 1_000;

/**
 * @example
 * const kv = createMemoryKv({ clock: systemClock });
 */
export function createMemoryKv(deps: { clock: Clock; logger?: Logger }): Kv {
  const values = new Map<string, Entry>();
  const windows = new Map<string, { hits: number[]; windowMs: number }>();
  const channels = new Map<string, Set<(message: string) => void>>();
  let ops = 0;
  let closed = false;

  const tick = () => {
    if (closed) throw new Error('The key-value store is closed');
    if (++ops % SWEEP_EVERY !== 0) return;
    const now = deps.clock.now();
    for (const [k, e] of values) if (e.expiresAt <= now) values.delete(k);
    for (const [k, w] of windows) if ((w.hits.at(-1) ?? -Infinity) <= now - w.windowMs) windows.delete(k);
  };
  const live = (key: string): Entry | undefined => {
    const e = values.get(key);
    if (e !== undefined && e.expiresAt <= deps.clock.now()) {
      values.delete(key);
      return undefined;
    }
    return e;
  };

  return {
    async hit(key, limit, windowMs): Promise<HitResult> {
      tick();
      const now = deps.clock.now();
      const w = windows.get(key) ?? { hits: [], windowMs };
      w.windowMs = windowMs;
      // Hits are in time order: drop the ones that left the window from the front.
      let drop = 0;
      while (drop < w.hits.length && w.hits[drop]! <= now - windowMs) drop++;
      if (drop > 0) w.hits.splice(0, drop);
      windows.set(key, w);
      if (w.hits.length < limit) {
        w.hits.push(now);
        return { allowed: true, count: w.hits.length, retryAfterMs: 0 };
      }
      const oldest = w.hits[0] ?? now;
      return { allowed: false, count: w.hits.length, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    },
    async setIfAbsent(key, value, ttlMs) {
      tick();
      if (live(key) !== undefined) return false;
      values.set(key, { value, expiresAt: deps.clock.now() + ttlMs });
      return true;
    },
    async get(key) {
      tick();
      return live(key)?.value ?? null;
    },
    async del(key) {
      tick();
      values.delete(key);
      windows.delete(key);
    },
    async publish(channel, message) {
      tick();
      const handlers = channels.get(channel);
      if (handlers === undefined) return;
      // Delivered later, like Redis: a publisher never runs subscriber code in its own call stack.
      for (const handler of [...handlers]) {
        setImmediate(() => {
          if (!handlers.has(handler)) return;
          try {
            handler(message);
          } catch (err) {
            deps.logger?.error({ err, channel }, 'subscriber failed');
          }
        });
      }
    },
    async subscribe(channel, handler) {
      tick();
      const own = (message: string) => handler(message);
      const set = channels.get(channel) ?? new Set();
      set.add(own);
      channels.set(channel, set);
      return async () => {
        set.delete(own);
        if (set.size === 0 && channels.get(channel) === set) channels.delete(channel);
      };
    },
    // One process: nothing sits between a publish and its subscribers, so no message is ever missed.
    onGap: () => () => undefined,
    async close() {
      closed = true;
      values.clear();
      windows.clear();
      channels.clear();
    },
  };
}
