/**
 * core/invalidation over real Redis when the subscription connection is cut: Redis drops what is
 * published while a subscriber is away, so once the connection is back and subscribed again, every
 * handler hears `null` ("anything may have changed") and the environment cache drops all it kept;
 * invalidations published after that arrive again. The connection is cut with CLIENT KILL by its id
 * (found by the name the store gives it), so nothing else using this Redis is touched.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createManualClock, createRedisKv, type Kv } from '@platform/control-plane';
import { createEnvironmentCache } from '../../../control-plane/src/apps/env-vars/cache.ts';
import { createInvalidation } from '../../../control-plane/src/core/invalidation/invalidation.ts';
import { describeWithService, dropRedisPrefix, redisState, runId } from '../../helpers/services.ts';

describeWithService('invalidation across a lost Redis connection', await redisState(), (url) => {
  const prefix = `test:${runId()}:`;
  const clock = createManualClock();
  let a: Kv;
  let b: Kv;
  let admin: Redis;
  beforeAll(async () => {
    [a, b] = await Promise.all([createRedisKv({ url, clock, prefix }), createRedisKv({ url, clock, prefix })]);
    admin = new Redis(url);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    admin?.disconnect();
    await dropRedisPrefix(url, prefix);
  });

  it('tells every handler to drop everything once subscribed again, and delivers what follows', async () => {
    const [onA, onB] = [createInvalidation({ kv: a }), createInvalidation({ kv: b })];
    const heard: Array<string | null> = [];
    let next: (() => void) | undefined;
    const arrival = () => new Promise<void>((resolve) => {
      next = resolve;
    });
    await onB.onInvalidate('things', (key) => {
      heard.push(key);
      next?.();
    });
    const cache = createEnvironmentCache({ invalidation: onB, clock });
    let loads = 0;
    const load = async () => ({ env: { N: String(++loads) }, secretEnvKeys: [] });
    await cache.get('app_1', 'production', load);
    expect((await cache.get('app_1', 'production', load)).env.N).toBe('1');

    let arrived = arrival();
    await onA.invalidate('things', 'before');
    await arrived;

    // B's subscriber connection (only B subscribed, so it is the one named so).
    const clients = (await admin.client('LIST')) as string;
    const ids = clients.split('\n').filter((line) => line.includes(` name=${prefix}subscriber `)).map((line) => /id=(\d+)/.exec(line)![1]!);
    expect(ids).toHaveLength(1);
    arrived = arrival();
    await admin.client('KILL', 'ID', ids[0]!);
    await arrived;
    expect(heard).toEqual(['before', null]);
    expect((await cache.get('app_1', 'production', load)).env.N).toBe('2');

    arrived = arrival();
    await onA.invalidate('things', 'after');
    await arrived;
    expect(heard).toEqual(['before', null, 'after']);
  });
});
