/**
 * @module fleet/registration
 * A runtime node's place in the fleet registry (layout in `fleet/record.ts`): it writes its record
 * on start and on every heartbeat (with a TTL of a few heartbeats, so a node killed without a word
 * drops out by itself), marks itself draining on SIGTERM, and removes itself when it stops. Every
 * change of standing is published so that control planes look again at once.
 *
 * Redis being away does not stop the node serving: a failed write is logged and tried again at the
 * next heartbeat; control planes keep the last list they read meanwhile.
 */
import type { Logger } from 'pino';
import { fleetKeys, type FleetNode } from './record.ts';

/** The few Redis commands used (ioredis' signatures), so tests can hand in any client. */
export interface RegistryRedis {
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
  sadd(key: string, member: string): Promise<unknown>;
  srem(key: string, member: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
}

export interface RegistrationDeps {
  redis: RegistryRedis;
  prefix: string;
  self: Pick<FleetNode, 'id' | 'url' | 'capacity'>;
  /** Requests in flight on the node now. */
  inFlight(): number;
  logger: Logger;
  now: () => number;
  heartbeatMs: number;
  /** How long a record outlives its last heartbeat. */
  ttlMs: number;
}

export interface Registration {
  start(): Promise<void>;
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * @example
 * const reg = createRegistration({ redis, prefix: 'platform:', self: { id, url, capacity: 2 }, inFlight, logger, now: Date.now, heartbeatMs: 1000, ttlMs: 5000 });
 * await reg.start(); // …SIGTERM: await reg.drain(); …in flight done: await reg.stop();
 */
export function createRegistration(deps: RegistrationDeps): Registration {
  const keys = fleetKeys(deps.prefix);
  const startedAt = deps.now();
  let draining = false;
  let timer: ReturnType<typeof setInterval> | null = null;

  const record = (): FleetNode => ({ ...deps.self, inFlight: deps.inFlight(), draining, startedAt, seenAt: deps.now() });
  const write = async (): Promise<void> => {
    await deps.redis.set(keys.node(deps.self.id), JSON.stringify(record()), 'PX', deps.ttlMs);
    await deps.redis.sadd(keys.nodes, deps.self.id);
  };
  const announce = async (what: 'join' | 'drain' | 'leave'): Promise<void> => {
    await deps.redis.publish(keys.changes, JSON.stringify({ id: deps.self.id, what }));
  };
  const heartbeat = (): void => {
    write().catch((err: unknown) => deps.logger.warn({ err }, 'fleet heartbeat failed; trying again at the next one'));
  };

  return {
    async start() {
      await write();
      await announce('join');
      timer = setInterval(heartbeat, deps.heartbeatMs);
      timer.unref();
    },
    async drain() {
      draining = true;
      await write();
      await announce('drain');
    },
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await deps.redis.del(keys.node(deps.self.id));
      await deps.redis.srem(keys.nodes, deps.self.id);
      await announce('leave');
    },
  };
}
