/**
 * @module apps/env-vars/cache
 * The opened environment of an app's target, kept in memory: every hosted delivery hands the
 * runtime node its app's environment, and reading and opening it for each one is a database round
 * trip per click.
 *
 * Invalidation: a change (set, delete) drops the entry here and in every replica (topic `env-vars`,
 * Redis pub/sub when REDIS_URL is set), with the rules of `core/invalidation/cache.ts`.
 */
import type { Clock } from '../../core/clock/clock.ts';
import { createInvalidatedCache } from '../../core/invalidation/cache.ts';
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

const keyOf = (appId: string, target: Target) => `${appId}:${target}`;

/**
 * @example
 * const cache = createEnvironmentCache({ invalidation, clock, logger });
 * const environment = await cache.get(appId, 'production', () => readEnvironment(appId, 'production'));
 */
export function createEnvironmentCache(deps: { invalidation: Invalidation; clock: Clock; logger?: Logger; ttlMs?: number; max?: number }): EnvironmentCache {
  const cache = createInvalidatedCache<Environment>({ ...deps, topic: ENV_TOPIC, what: 'environment' });
  return {
    get: (appId, target, load) => cache.get(keyOf(appId, target), load),
    changed: (appId, target) => cache.invalidate(keyOf(appId, target)),
  };
}
