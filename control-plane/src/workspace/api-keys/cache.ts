/**
 * @module workspace/api-keys/cache
 * Who is behind a member API key, kept in memory: every member request starts with it, and the
 * lookup was a database round trip of its own on every click.
 *
 * What an entry holds never changes while the key is active (members keep their name and role,
 * keys are only ever revoked), so the one change to hear of is a revocation: `revoked(keyId)`
 * drops the entry here at once and in every other replica (topic `api-keys`, Redis pub/sub when
 * REDIS_URL is set) before the revocation is answered, with the rules of
 * `core/invalidation/cache.ts`. Unknown keys are never kept: a new key works at once, and guessing
 * keys fills nothing.
 */
import type { Clock } from '../../core/clock/clock.ts';
import { createInvalidatedCache } from '../../core/invalidation/cache.ts';
import type { Invalidation } from '../../core/invalidation/invalidation.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { KeyOwnerRow } from './store.ts';

export interface ApiKeyCache {
  /** The active key's owner from memory, or loaded with `load` (and kept when that is safe); undefined for unknown or revoked keys. */
  get(keyHash: string, load: () => Promise<KeyOwnerRow | undefined>): Promise<KeyOwnerRow | undefined>;
  /** After a committed revocation: drops the key here and tells the other replicas. */
  revoked(keyId: string): Promise<void>;
}

/** The invalidation topic of revoked keys (the key is the API key's id). */
export const API_KEYS_TOPIC = 'api-keys';

/**
 * @example
 * const cache = createApiKeyCache({ invalidation, clock, logger });
 * const owner = await cache.get(hashApiKey(key), () => findActiveKeyOwner(db, hashApiKey(key)));
 */
export function createApiKeyCache(deps: { invalidation: Invalidation; clock: Clock; logger?: Logger; ttlMs?: number; max?: number }): ApiKeyCache {
  const cache = createInvalidatedCache<KeyOwnerRow | undefined>({ ...deps, topic: API_KEYS_TOPIC, what: 'API key' });
  // Looked up by the key's hash, revoked by its id; unknown keys are never kept.
  const options = { keep: (owner: KeyOwnerRow | undefined) => owner !== undefined, invalidationKey: (owner: KeyOwnerRow | undefined) => owner!.key_id };
  return {
    get: (keyHash, load) => cache.get(keyHash, load, options),
    revoked: (keyId) => cache.invalidate(keyId),
  };
}
