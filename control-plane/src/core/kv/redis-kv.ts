/**
 * @module core/kv/redis-kv
 * `Kv` on Redis through ioredis. Counters and TTL checks run as Lua scripts so each is one atomic
 * step even with many replicas. Every key and channel carries `prefix` (one deployment, or one test
 * run, per prefix).
 */
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import type { HitResult, Kv } from './kv.ts';

// Sliding log: one sorted-set member per hit, scored by its time. Hits at or before now - window
// have left the window.
const HIT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, count + 1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local retry = tonumber(oldest[2]) + window - now
if retry < 1 then retry = 1 end
return {0, count, retry}
`;

// Values are stored as "<expiresAt>:<value>"; the logical expiry follows the service clock, and
// Redis's PX (the same ttl) only collects garbage.
const SET_IF_ABSENT = `
local current = redis.call('GET', KEYS[1])
if current then
  local sep = string.find(current, ':', 1, true)
  if sep and tonumber(string.sub(current, 1, sep - 1)) > tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[3], 'PX', ARGV[4])
return 1
`;

/** The scripts above as commands (`defineCommand`), typed. */
interface ScriptCommands {
  platformHit(key: string, ...args: Array<string | number>): Promise<unknown>;
  platformSetIfAbsent(key: string, ...args: Array<string | number>): Promise<unknown>;
}

export interface RedisKvOptions {
  url: string;
  clock: Clock;
  prefix?: string;
  logger?: Logger;
}

/**
 * Connects and returns a `Kv`; rejects when Redis cannot be reached.
 *
 * @example
 * const kv = await createRedisKv({ url: 'redis://127.0.0.1:6379', clock: systemClock, prefix: 'platform:' });
 */
export async function createRedisKv(options: RedisKvOptions): Promise<Kv> {
  const prefix = options.prefix ?? 'platform:';
  const clock = options.clock;
  // Named after the prefix, so an operator (or a test) can tell a deployment's connections apart.
  const connect = async (name: string): Promise<Redis> => {
    const client = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000, connectionName: name.replace(/[^\x21-\x7e]/g, '_') });
    client.on('error', (err) => options.logger?.warn({ err }, 'redis connection error'));
    try {
      await client.connect();
    } catch (err) {
      client.disconnect();
      throw err;
    }
    return client;
  };
  const redis = await connect(`${prefix}commands`);
  // Sent as EVALSHA: the script's text goes to Redis once (ioredis sends EVAL again by itself when
  // Redis answers NOSCRIPT, after a restart or SCRIPT FLUSH), not with every click's end of action.
  redis.defineCommand('platformHit', { numberOfKeys: 1, lua: HIT });
  redis.defineCommand('platformSetIfAbsent', { numberOfKeys: 1, lua: SET_IF_ABSENT });
  const scripts = redis as Redis & ScriptCommands;
  let subscriber: Promise<Redis> | undefined;
  // Per channel: its handlers and the SUBSCRIBE in flight, which later subscribers wait for too.
  const channels = new Map<string, { handlers: Set<(message: string) => void>; ready: Promise<unknown> }>();
  const gapListeners = new Set<() => void>();

  // ioredis subscribes again on its own after a reconnect, but emits `ready` before Redis confirmed it;
  // one more SUBSCRIBE on the same connection is answered after those, so once it is, every message
  // from then on arrives and the listeners may drop what they kept.
  const afterReconnect = async (sub: Redis) => {
    const names = [...channels.keys()];
    if (names.length > 0) await sub.subscribe(...names).catch((err: unknown) => options.logger?.warn({ err }, 'redis: subscribing again failed'));
    for (const listener of [...gapListeners]) {
      try {
        listener();
      } catch (err) {
        options.logger?.error({ err }, 'gap listener failed');
      }
    }
  };

  const getSubscriber = () => {
    subscriber ??= connect(`${prefix}subscriber`).then((sub) => {
      // Registered once connected: every later `ready` follows a lost connection.
      sub.on('ready', () => void afterReconnect(sub));
      sub.on('message', (channel: string, message: string) => {
        for (const handler of [...(channels.get(channel)?.handlers ?? [])]) {
          try {
            handler(message);
          } catch (err) {
            options.logger?.error({ err, channel }, 'subscriber failed');
          }
        }
      });
      return sub;
    });
    return subscriber;
  };

  return {
    async hit(key, limit, windowMs): Promise<HitResult> {
      const member = `${clock.now()}:${randomBytes(6).toString('base64url')}`;
      const [allowed, count, retry] = (await scripts.platformHit(prefix + key, clock.now(), windowMs, limit, member)) as [number, number, number];
      return { allowed: allowed === 1, count, retryAfterMs: retry };
    },
    async setIfAbsent(key, value, ttlMs) {
      const now = clock.now();
      const stored = await scripts.platformSetIfAbsent(prefix + key, now, now + ttlMs, value, Math.max(1, Math.ceil(ttlMs)));
      return stored === 1;
    },
    async get(key) {
      const raw = await redis.get(prefix + key);
      if (raw === null) return null;
      const sep = raw.indexOf(':');
      if (sep < 0) return null;
      return Number(raw.slice(0, sep)) > clock.now() ? raw.slice(sep + 1) : null;
    },
    async del(key) {
      await redis.del(prefix + key);
    },
    async publish(channel, message) {
      await redis.publish(prefix + channel, message);
    },
    async subscribe(channel, handler) {
      const sub = await getSubscriber();
      const name = prefix + channel;
      let entry = channels.get(name);
      if (entry === undefined) {
        entry = { handlers: new Set(), ready: sub.subscribe(name) };
        channels.set(name, entry);
      }
      const own = (message: string) => handler(message);
      entry.handlers.add(own);
      await entry.ready;
      return async () => {
        const current = channels.get(name);
        if (current === undefined || !current.handlers.delete(own) || current.handlers.size > 0) return;
        channels.delete(name);
        await sub.unsubscribe(name);
      };
    },
    onGap(listener) {
      gapListeners.add(listener);
      return () => gapListeners.delete(listener);
    },
    async close() {
      gapListeners.clear();
      const sub = subscriber === undefined ? undefined : await subscriber.catch(() => undefined);
      await Promise.all([redis.quit().catch(() => redis.disconnect()), sub?.quit().catch(() => sub.disconnect())]);
    },
  };
}
