/**
 * @module core/kv/open-kv
 * Picks the key-value store from config: Redis when REDIS_URL is set, the in-process stand-in else.
 */
import type { Clock } from '../clock/clock.ts';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log/logger.ts';
import type { Kv } from './kv.ts';
import { createMemoryKv } from './memory-kv.ts';
import { createRedisKv } from './redis-kv.ts';

export async function openKv(config: Pick<Config, 'redisUrl' | 'redisPrefix'>, deps: { clock: Clock; logger: Logger }): Promise<Kv> {
  if (config.redisUrl === null) return createMemoryKv(deps);
  return createRedisKv({ url: config.redisUrl, prefix: config.redisPrefix, clock: deps.clock, logger: deps.logger });
}
