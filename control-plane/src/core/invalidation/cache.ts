/**
 * @module core/invalidation/cache
 * The one in-memory cache kept right across replicas (the environment of an app's target, the owner
 * of a member API key): entries dropped here and in every other replica through `invalidation.ts`
 * when what they hold changes, before the change is answered.
 *
 * A load that overlaps an invalidation is answered but not kept (the epoch moved), so an old read
 * never lands after a newer drop. Entries are kept only while the subscription is up, all are
 * dropped when it comes back after a lost connection (messages may have been missed), and each for
 * `ttlMs` at most. An entry may be invalidated by another key than the one it is looked up by
 * (`invalidationKey`: an API key is looked up by its hash and revoked by its id).
 */
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import type { Invalidation } from './invalidation.ts';

export interface InvalidatedCache<V> {
  /**
   * The value from memory, or loaded with `load` and kept when that is safe and `keep` allows it
   * (unknown API keys are never kept).
   */
  get(key: string, load: () => Promise<V>, options?: { keep?(value: V): boolean; invalidationKey?(value: V): string }): Promise<V>;
  /** After a committed change: drops the entry here at once, then in every other replica. */
  invalidate(invalidationKey: string): Promise<void>;
}

export interface InvalidatedCacheDeps {
  invalidation: Invalidation;
  clock: Clock;
  logger?: Logger | undefined;
  /** The invalidation topic (one per kind of entry). */
  topic: string;
  /** What the cache holds, for the warning when it cannot subscribe. */
  what: string;
  ttlMs?: number | undefined;
  max?: number | undefined;
}

const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MAX = 10_000;

/**
 * @example
 * const cache = createInvalidatedCache<Environment>({ invalidation, clock, topic: 'env-vars', what: 'environment' });
 * const env = await cache.get(`${appId}:production`, () => readEnvironment(appId, 'production'));
 * await cache.invalidate(`${appId}:production`); // after the change committed
 */
export function createInvalidatedCache<V>(deps: InvalidatedCacheDeps): InvalidatedCache<V> {
  const ttlMs = deps.ttlMs ?? DEFAULT_TTL_MS;
  const max = deps.max ?? DEFAULT_MAX;
  const entries = new Map<string, { value: V; at: number }>();
  /** Invalidation key → the key its entry is kept under (when the two differ). */
  const keys = new Map<string, string>();
  let epoch = 0;
  let listening: Promise<boolean> | undefined;

  const clear = () => {
    entries.clear();
    keys.clear();
  };
  // null: messages may have been missed (a Redis reconnect), so nothing kept can be trusted.
  const drop = (invalidationKey: string | null) => {
    epoch++;
    if (invalidationKey === null) return clear();
    entries.delete(keys.get(invalidationKey) ?? invalidationKey);
    keys.delete(invalidationKey);
  };
  // Subscribed on first use; until then (or if it failed) nothing is kept.
  const listen = () => (listening ??= deps.invalidation.onInvalidate(deps.topic, drop).then(() => true, (err: unknown) => {
    deps.logger?.warn({ err }, `${deps.what} cache off: no subscription to changes`);
    return false;
  }));

  return {
    async get(key, load, options = {}) {
      const now = deps.clock.now();
      const hit = entries.get(key);
      if (hit !== undefined && now - hit.at < ttlMs && now >= hit.at) return hit.value;
      const safe = await listen();
      const seen = epoch;
      const value = await load();
      if (safe && seen === epoch && (options.keep?.(value) ?? true)) {
        if (entries.size >= max) clear();
        entries.set(key, { value, at: now });
        const invalidationKey = options.invalidationKey?.(value);
        if (invalidationKey !== undefined && invalidationKey !== key) keys.set(invalidationKey, key);
      }
      return value;
    },
    async invalidate(invalidationKey) {
      drop(invalidationKey);
      await deps.invalidation.invalidate(deps.topic, invalidationKey);
    },
  };
}
