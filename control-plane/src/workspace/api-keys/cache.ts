/**
 * @module workspace/api-keys/cache
 * Who is behind a member API key, kept in memory: every member request starts with it, and the
 * lookup was a database round trip of its own on every click.
 *
 * What an entry holds never changes while the key is active (members keep their name and role,
 * keys are only ever revoked), so the one change to hear of is a revocation: `revoked(keyId)`
 * drops the entry here at once and in every other replica through `core/invalidation` (topic
 * `api-keys`, Redis pub/sub when REDIS_URL is set), before the revocation is answered. A lookup
 * that overlapped a revocation is answered but not kept (the epoch moved), so an old read never
 * lands after a newer drop. Entries are kept only while the subscription is up, all are dropped
 * when it comes back after a lost connection (messages may have been missed), and each for
 * `ttlMs` at most. Unknown keys are never kept: a new key works at once, and guessing keys fills
 * nothing.
 */
import type { Clock } from '../../core/clock/clock.ts';
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
const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MAX = 10_000;

/**
 * @example
 * const cache = createApiKeyCache({ invalidation, clock, logger });
 * const owner = await cache.get(hashApiKey(key), () => findActiveKeyOwner(db, hashApiKey(key)));
 */
export function createApiKeyCache(deps: { invalidation: Invalidation; clock: Clock; logger?: Logger; ttlMs?: number; max?: number }): ApiKeyCache {
  const ttlMs = deps.ttlMs ?? DEFAULT_TTL_MS;
  const max = deps.max ?? DEFAULT_MAX;
  const entries = new Map<string, { owner: KeyOwnerRow; at: number }>();
  /** Key id → the hash its entry is kept under. */
  const hashes = new Map<string, string>();
  let epoch = 0;
  let listening: Promise<boolean> | undefined;

  // null: messages may have been missed (a Redis reconnect), so nothing kept can be trusted.
  const drop = (keyId: string | null) => {
    epoch++;
    if (keyId === null) {
      entries.clear();
      hashes.clear();
      return;
    }
    const hash = hashes.get(keyId);
    hashes.delete(keyId);
    if (hash !== undefined) entries.delete(hash);
  };
  // Subscribed on first use; until then (or if it failed) nothing is kept.
  const listen = () => (listening ??= deps.invalidation.onInvalidate(API_KEYS_TOPIC, drop).then(() => true, (err: unknown) => {
    deps.logger?.warn({ err }, 'API key cache off: no subscription to revocations');
    return false;
  }));

  return {
    async get(keyHash, load) {
      const now = deps.clock.now();
      const hit = entries.get(keyHash);
      if (hit !== undefined && now - hit.at < ttlMs && now >= hit.at) return hit.owner;
      const safe = await listen();
      const seen = epoch;
      const owner = await load();
      if (owner !== undefined && safe && seen === epoch) {
        if (entries.size >= max) {
          entries.clear();
          hashes.clear();
        }
        entries.set(keyHash, { owner, at: now });
        hashes.set(owner.key_id, keyHash);
      }
      return owner;
    },
    async revoked(keyId) {
      drop(keyId);
      await deps.invalidation.invalidate(API_KEYS_TOPIC, keyId);
    },
  };
}
