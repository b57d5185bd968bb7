/**
 * @module core/runtime-node/nodes
 * The runtime nodes of this control plane, as the rest of it uses them: where they are (the
 * directory: one node at RUNTIME_URL, or the fleet registry in Redis), which one gets a request
 * (the placement) and a client per node, made on first use and kept.
 */
import { Redis } from 'ioredis';
import type { RuntimeClient } from '@platform/runtime';
import type { FleetNode } from '@platform/runtime/fleet';
import type { Clock } from '../clock/clock.ts';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log/logger.ts';
import { createRedisDirectory, createStaticDirectory, type NodeDirectory } from './directory.ts';
import { createPlacement, type Placement } from './placement.ts';
import { tryNodes } from './try-nodes.ts';

export interface RuntimeNodes {
  directory: NodeDirectory;
  placement: Placement;
  /** The client of a node (one per node URL). */
  client(node: FleetNode): Promise<RuntimeClient>;
  /** Runs a call on the key's nodes in order until one takes it (`try-nodes.ts`). */
  run<T>(key: string, signal: AbortSignal | undefined, call: (client: RuntimeClient) => Promise<T>): Promise<T>;
  /** Resolves once the directory has been read. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RuntimeNodesDeps {
  config: Pick<Config, 'runtimeFleet' | 'runtimeUrl' | 'redisUrl' | 'redisPrefix'>;
  logger: Logger;
  clock: Clock;
  /** Makes the client of one node (the runtime's own, with this process's fetch). */
  makeClient(url: string): Promise<RuntimeClient>;
  /** How often the registry is read besides the nodes' announcements (default 1000 ms). */
  refreshMs?: number;
}

function openDirectory(deps: RuntimeNodesDeps): NodeDirectory {
  const { config } = deps;
  if (config.runtimeFleet === 'off' || config.redisUrl === null) return createStaticDirectory(config.runtimeUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
  const subscriber = new Redis(config.redisUrl);
  for (const connection of [redis, subscriber]) connection.on('error', (err) => deps.logger.warn({ err }, 'fleet registry connection error'));
  return createRedisDirectory({
    redis, subscriber, prefix: config.redisPrefix, refreshMs: deps.refreshMs ?? 1000, logger: deps.logger,
    disconnect: () => {
      redis.disconnect();
      subscriber.disconnect();
    },
  });
}

/**
 * @example
 * const nodes = openRuntimeNodes({ config, logger, clock, makeClient: async (url) => createRuntimeClient({ url, secret }) });
 * await nodes.ready();
 */
export function openRuntimeNodes(deps: RuntimeNodesDeps): RuntimeNodes {
  const directory = openDirectory(deps);
  const placement = createPlacement({ directory, now: () => deps.clock.now() });
  const clients = new Map<string, Promise<RuntimeClient>>();
  const client = (node: FleetNode): Promise<RuntimeClient> => {
    let made = clients.get(node.url);
    if (made === undefined) {
      // Nodes come and go with new addresses: clients of nodes no longer listed are let go.
      if (clients.size >= 2 * directory.nodes().length + 4) {
        const listed = new Set(directory.nodes().map((n) => n.url));
        for (const url of clients.keys()) if (!listed.has(url)) clients.delete(url);
      }
      made = deps.makeClient(node.url);
      clients.set(node.url, made);
    }
    return made;
  };
  return {
    directory,
    placement,
    client,
    run: (key, signal, call) => tryNodes(placement, key, signal, async (node) => call(await client(node))),
    ready: () => directory.ready(),
    close: () => directory.close(),
  };
}
