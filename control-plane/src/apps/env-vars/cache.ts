/**
 * @module apps/env-vars/cache
 * The opened environment of an app's target, kept in memory: every hosted delivery hands the
 * runtime node its app's environment, and reading and opening it for each one is a database round
 * trip per click.
 *
 * Invalidation: a change (set, delete) drops the entry here and in every replica through
 * `core/invalidation` (topic `env-vars`, Redis pub/sub when REDIS_URL is set). A load that overlaps an
 * invalidation is answered but not kept (the epoch moved), so an old read never lands after a
 * newer drop. Entries are kept only while the subscription is up, all are dropped when it comes
 * back after a lost connection (messages may have been missed), and each for `ttlMs` at most.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Invalidation } from '../../core/invalidation/invalidation.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { Target } from '../versions/store.ts';

export interface Environment {
  env: Record<string, string>;
  secretEnvKeys: string[];
}

export interface EnvironmentCache {
  /** The environment from memory, or loaded with `load` (and kept when that is safe). */
  get(appId: string, target: Target, load: () => Promise<Environment>): Promise<Environment>;
  /** After a committed change: drops the entry here and tells the other replicas. */
  changed(appId: string, target: Target): Promise<void>;
}

/** The invalidation topic of environment changes (the key is the entry's). */
export const ENV_TOPIC = 'env-vars';
const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MAX = 10_000;

const keyOf = (appId: string, target: Target) => `${appId}:${target}`;

/**
 * @example
 * const cache = createEnvironmentCache({ invalidation, clock, logger });
 * const environment = await cache.get(appId, 'production', () => readEnvironment(appId, 'production'));
 */
export function createEnvironmentCache(deps: { invalidation: Invalidation; clock: Clock; logger?: Logger; ttlMs?: number; max?: number }): EnvironmentCache {
  const ttlMs = deps.ttlMs ?? DEFAULT_TTL_MS;
  const max = deps.max ?? DEFAULT_MAX;
  const entries = new Map<string, { value: Environment; at: number }>();
  let epoch = 0;
  let listening: Promise<boolean> | undefined;

  // null: messages may have been missed (a Redis reconnect), so nothing kept can be trusted.
  const drop = (key: string | null) => {
    epoch++;
    if (key === null) entries.clear();
    else entries.delete(key);
  };
  // Subscribed on first use; until then (or if it failed) nothing is kept.
  const listen = () => (listening ??= deps.invalidation.onInvalidate(ENV_TOPIC, drop).then(() => true, (err: unknown) => {
    deps.logger?.warn({ err }, 'environment cache off: no subscription to changes');
    return false;
  }));

  return {
    async get(appId, target, load) {
      const key = keyOf(appId, target);
      const now = deps.clock.now();
      const hit = entries.get(key);
      if (hit !== undefined && now - hit.at < ttlMs && now >= hit.at) return hit.value;
      const safe = await listen();
      const seen = epoch;
      const value = await load();
      if (safe && seen === epoch) {
        if (entries.size >= max) entries.clear();
        entries.set(key, { value, at: now });
      }
      return value;
    },
    async changed(appId, target) {
      // Drops it here at once (when subscribed; else nothing is kept), then everywhere else.
      const key = keyOf(appId, target);
      drop(key);
      await deps.invalidation.invalidate(ENV_TOPIC, key);
    },
  };
}
