/**
 * @module core/invalidation/invalidation
 * Cache invalidation across control planes. A process that changes what caches hold calls
 * `invalidate(topic, key)` after its change committed; every process (itself included) that keeps
 * such a cache hears of it through `onInvalidate(topic, handler)` and drops the entry.
 *
 * Carried by the key-value store's pub/sub, one channel per topic: Redis when REDIS_URL is set (every
 * replica hears every change), the in-process stand-in when not (one process, in memory). This
 * process's handlers run at once, before the publish, so a change is never served stale by the
 * replica that made it; the message echoed back to its sender is skipped.
 *
 * Pub/sub drops messages nobody receives: a replica reconnecting to Redis misses what was sent
 * meanwhile. Once it is subscribed again, its handlers are called with `null`, "anything may have
 * changed": a cache drops every entry of the topic. Caches still bound how long they keep an entry,
 * for what no reconnect reveals (a message lost without the connection dropping).
 */
import { randomBytes } from 'node:crypto';
import type { Kv, Unsubscribe } from '../kv/kv.ts';
import type { Logger } from '../log/logger.ts';

export interface Invalidation {
  /** Drops `key` of `topic` here at once, then in every other process; publishing failures are logged, not thrown (the change is committed). */
  invalidate(topic: string, key: string): Promise<void>;
  /**
   * Calls `handler` with each key invalidated on `topic`, by any process, once the returned promise
   * resolved; with `null` after messages may have been missed (drop everything of the topic).
   */
  onInvalidate(topic: string, handler: (key: string | null) => void): Promise<Unsubscribe>;
}

const channelOf = (topic: string) => `invalidate:${topic}`;

/**
 * @example
 * const invalidation = createInvalidation({ kv, logger });
 * await invalidation.onInvalidate('env-vars', (key) => entries.delete(key));
 * await invalidation.invalidate('env-vars', `${appId}:production`);
 */
export function createInvalidation(deps: { kv: Kv; logger?: Logger }): Invalidation {
  // Messages are `<origin> <key>`: a process skips its own echo (it already ran its handlers).
  const origin = randomBytes(9).toString('base64url');
  const local = new Map<string, Set<(key: string | null) => void>>();

  const runLocal = (topic: string, key: string) => {
    for (const handler of [...(local.get(topic) ?? [])]) handler(key);
  };

  return {
    async invalidate(topic, key) {
      runLocal(topic, key);
      try {
        await deps.kv.publish(channelOf(topic), `${origin} ${key}`);
      } catch (err) {
        deps.logger?.warn({ err, topic }, 'invalidation not published; other replicas catch up when their entries expire');
      }
    },
    async onInvalidate(topic, handler) {
      const handlers = local.get(topic) ?? new Set();
      local.set(topic, handlers);
      const own = (key: string | null) => {
        try {
          handler(key);
        } catch (err) {
          deps.logger?.error({ err, topic }, 'invalidation handler failed');
        }
      };
      const unsubscribe = await deps.kv.subscribe(channelOf(topic), (message) => {
        const space = message.indexOf(' ');
        if (space >= 0 && message.slice(0, space) !== origin) own(message.slice(space + 1));
      });
      const offGap = deps.kv.onGap(() => own(null));
      handlers.add(own);
      return async () => {
        handlers.delete(own);
        offGap();
        await unsubscribe();
      };
    },
  };
}
