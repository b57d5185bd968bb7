/**
 * The fleet registry in real Redis, as a node writes it (runtime/src/fleet/registration.ts) and a
 * control plane reads it (core/runtime-node/directory.ts): a node that joins is seen at once through
 * the announcement (the refresh interval here is an hour), draining and leaving too; ids whose
 * record is gone or is not a record are dropped and tidied from the set.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fleetKeys, parseFleetNode } from '@platform/runtime/fleet';
import { createRegistration } from '../../../runtime/src/fleet/registration.ts';
import { createRedisDirectory, type NodeDirectory } from '../../../control-plane/src/core/runtime-node/directory.ts';
import { nameNeeding, redisUrl } from '../../helpers/services.ts';

// REDIS_URL, or the run's private Redis (helpers/services.global.ts).
const REDIS_URL = redisUrl() ?? undefined;
const PREFIX = `test-registry-${randomBytes(4).toString('hex')}:`;
const keys = fleetKeys(PREFIX);
const logger = pino({ level: 'silent' });

describe.skipIf(REDIS_URL === undefined)(nameNeeding('fleet registry', { redis: REDIS_URL }), () => {
  let redis: Redis;
  let subscriber: Redis;
  let directory: NodeDirectory;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL!);
    subscriber = new Redis(REDIS_URL!);
    directory = createRedisDirectory({ redis, subscriber, prefix: PREFIX, refreshMs: 3_600_000, logger, disconnect: () => {
      redis.disconnect();
      subscriber.disconnect();
    } });
    await directory.ready();
  });

  afterAll(async () => {
    const cleanup = new Redis(REDIS_URL!);
    const left = await cleanup.keys(`${PREFIX}*`);
    if (left.length > 0) await cleanup.del(...left);
    cleanup.disconnect();
    await directory.close();
  });

  it('sees a node join, drain and leave as it announces them', async () => {
    const writer = new Redis(REDIS_URL!);
    let inFlight = 3;
    const registration = createRegistration({
      redis: writer, prefix: PREFIX, self: { id: 'n1', url: 'http://10.0.0.1:4001', capacity: 4 }, inFlight: () => inFlight,
      logger, now: () => 1_700_000_000_000, heartbeatMs: 3_600_000, ttlMs: 60_000,
    });
    try {
      await registration.start();
      await vi.waitFor(() => expect(directory.nodes()).toEqual([
        { id: 'n1', url: 'http://10.0.0.1:4001', capacity: 4, inFlight: 3, draining: false, startedAt: 1_700_000_000_000, seenAt: 1_700_000_000_000 },
      ]));
      inFlight = 1;
      await registration.drain();
      await vi.waitFor(() => expect(directory.nodes()[0]).toMatchObject({ draining: true, inFlight: 1 }));
      await registration.stop();
      await vi.waitFor(() => expect(directory.nodes()).toEqual([]));
      expect(await redis.pttl(keys.node('n1'))).toBe(-2);
    } finally {
      writer.disconnect();
    }
  });

  it('drops ids whose record expired or is not a record, and tidies them from the set', async () => {
    await redis.sadd(keys.nodes, 'expired', 'garbled');
    await redis.set(keys.node('garbled'), JSON.stringify({ id: 'garbled', url: 'file:///etc/passwd', capacity: 1 }));
    await redis.publish(keys.changes, JSON.stringify({ id: 'expired', what: 'join' }));
    await vi.waitFor(async () => expect(await redis.smembers(keys.nodes)).toEqual([]));
    expect(directory.nodes()).toEqual([]);
  });

  it('reads only well-formed records', () => {
    const good = { id: 'a', url: 'http://a:1/', capacity: 1, inFlight: 0, draining: false, startedAt: 1, seenAt: 2 };
    expect(parseFleetNode(JSON.stringify(good))).toEqual({ ...good, url: 'http://a:1' });
    for (const bad of ['', 'null', '[]', '{', JSON.stringify({ ...good, capacity: -1 }), JSON.stringify({ ...good, draining: 'no' }), JSON.stringify({ ...good, id: '' })]) {
      expect(parseFleetNode(bad)).toBeNull();
    }
    expect(parseFleetNode(null)).toBeNull();
  });
});
