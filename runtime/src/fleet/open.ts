/**
 * @module fleet/open
 * Connects a node to the fleet registry in Redis (ioredis) and hands back its registration; stopping
 * it also closes the connection.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { FleetConfig } from '../config/config.ts';
import { createRegistration, type Registration } from './registration.ts';

export interface OpenRegistrationInput {
  fleet: FleetConfig;
  url: string;
  capacity: number;
  inFlight(): number;
  logger: Logger;
  now: () => number;
}

export function openRegistration(input: OpenRegistrationInput): Registration {
  // A command waits for at most one reconnect: a heartbeat that cannot be written is logged and the
  // next one tries again, rather than piling up behind a Redis that is away.
  const redis = new Redis(input.fleet.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', (err) => input.logger.warn({ err }, 'fleet registry connection error'));
  const registration = createRegistration({
    redis,
    prefix: input.fleet.prefix,
    self: { id: input.fleet.nodeId, url: input.url, capacity: input.capacity },
    inFlight: input.inFlight,
    logger: input.logger,
    now: input.now,
    heartbeatMs: input.fleet.heartbeatMs,
    ttlMs: input.fleet.ttlMs,
  });
  return {
    start: registration.start,
    drain: registration.drain,
    async stop() {
      try {
        await registration.stop();
      } finally {
        redis.disconnect();
      }
    },
  };
}
