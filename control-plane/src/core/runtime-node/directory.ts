/**
 * @module core/runtime-node/directory
 * The runtime nodes a control plane may send work to. Alone (`npm start`, no Redis) that is the one
 * node at RUNTIME_URL. In a fleet it is the registry in Redis that the nodes keep (layout in
 * `@platform/runtime/fleet`): read every `refreshMs`, and at once when a node announces that it
 * joined, drains or leaves. A node killed without a word drops out when its record's TTL passes;
 * until then the placement learns it is down from the refused connection.
 *
 * When Redis cannot be read, the last list read is kept: the nodes keep serving meanwhile.
 */
import { fleetKeys, parseFleetNode, type FleetNode } from '@platform/runtime/fleet';
import type { Logger } from '../log/logger.ts';

export interface NodeDirectory {
  /** Every known node, draining ones included (they finish what they hold). */
  nodes(): readonly FleetNode[];
  /** Resolves after the first read. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The one node of a control plane without a fleet. */
export function createStaticDirectory(url: string, capacity = 1): NodeDirectory {
  const node: FleetNode = { id: 'runtime', url: url.replace(/\/$/, ''), capacity, inFlight: 0, draining: false, startedAt: 0, seenAt: 0 };
  const list = [node];
  return { nodes: () => list, ready: async () => {}, close: async () => {} };
}

/** The Redis commands the directory reads with (ioredis' signatures). */
export interface DirectoryRedis {
  smembers(key: string): Promise<string[]>;
  mget(keys: string[]): Promise<Array<string | null>>;
  srem(key: string, ...members: string[]): Promise<unknown>;
}

export interface DirectorySubscriber {
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
}

export interface RedisDirectoryDeps {
  redis: DirectoryRedis;
  subscriber: DirectorySubscriber;
  prefix: string;
  refreshMs: number;
  logger: Logger;
  /** Closes the connections (the caller opened them). */
  disconnect(): void;
}

/**
 * @example
 * const directory = createRedisDirectory({ redis, subscriber, prefix: 'platform:', refreshMs: 1000, logger, disconnect });
 * await directory.ready();
 * directory.nodes(); // [{ id, url, capacity, inFlight, draining, … }]
 */
export function createRedisDirectory(deps: RedisDirectoryDeps): NodeDirectory {
  const keys = fleetKeys(deps.prefix);
  let list: readonly FleetNode[] = [];
  let reading: Promise<void> | null = null;
  let again = false;

  const readOnce = async (): Promise<void> => {
    const ids = await deps.redis.smembers(keys.nodes);
    if (ids.length === 0) {
      list = [];
      return;
    }
    const records = await deps.redis.mget(ids.map((id) => keys.node(id)));
    const next: FleetNode[] = [];
    const gone: string[] = [];
    ids.forEach((id, i) => {
      const node = parseFleetNode(records[i]);
      if (node === null || node.id !== id) gone.push(id);
      else next.push(node);
    });
    // Ids whose record expired: the node died without leaving. Any reader may tidy the set.
    if (gone.length > 0) await deps.redis.srem(keys.nodes, ...gone);
    list = next;
  };
  // One read at a time; a change announced during a read is read again right after it.
  const refresh = (): Promise<void> => {
    if (reading !== null) {
      again = true;
      return reading;
    }
    reading = readOnce()
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not read the fleet registry; keeping the last list'))
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          void refresh();
        }
      });
    return reading;
  };

  const timer = setInterval(() => void refresh(), deps.refreshMs);
  timer.unref();
  deps.subscriber.on('message', (channel) => {
    if (channel === keys.changes) void refresh();
  });
  const first = deps.subscriber.subscribe(keys.changes).then(() => refresh());

  return {
    nodes: () => list,
    ready: () => first,
    async close() {
      clearInterval(timer);
      await reading;
      deps.disconnect();
    },
  };
}
