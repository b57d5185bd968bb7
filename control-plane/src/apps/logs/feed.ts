/**
 * @module apps/logs/feed
 * Live log lines across control planes. The replica that stored a node's batch publishes each
 * app's new lines on the key-value store's pub/sub, channel `app-logs:{appId}`; every replica with
 * a stream open on that app is subscribed and passes them on. Redis when REDIS_URL is set (every
 * replica hears every batch), the in-process stand-in otherwise (one process). A channel is
 * subscribed only while some stream of this replica reads it.
 *
 * Pub/sub keeps nothing: a replica that loses its Redis connection misses what was published
 * meanwhile. Streams then carry on with what comes next; the missed lines are in the database
 * (`GET …/logs`, or a stream reopened with `Last-Event-ID`).
 */
import type { Kv, Unsubscribe } from '../../core/kv/kv.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { LogLine } from './schemas.ts';

export interface LogFeed {
  publish(appId: string, lines: readonly LogLine[]): Promise<void>;
  /** Calls `handler` with each batch of `appId`'s lines stored from when the returned promise resolves. */
  subscribe(appId: string, handler: (lines: LogLine[]) => void): Promise<Unsubscribe>;
}

const channelOf = (appId: string) => `app-logs:${appId}`;

export function createLogFeed(deps: { kv: Kv; logger: Logger }): LogFeed {
  return {
    async publish(appId, lines) {
      if (lines.length === 0) return;
      try {
        await deps.kv.publish(channelOf(appId), JSON.stringify(lines));
      } catch (err) {
        // Stored already: only live readers miss these lines.
        deps.logger.warn({ err, appId }, 'app log lines not published to live streams');
      }
    },
    subscribe(appId, handler) {
      return deps.kv.subscribe(channelOf(appId), (message) => {
        try {
          handler(JSON.parse(message) as LogLine[]);
        } catch (err) {
          deps.logger.error({ err, appId }, 'a live app log message could not be passed on');
        }
      });
    },
  };
}
