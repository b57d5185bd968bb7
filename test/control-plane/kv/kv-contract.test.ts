/**
 * The `Kv` contract, run against the in-process stand-in always and real Redis whenever REDIS_URL
 * is set (one key prefix per run, removed afterwards; CI=true and unreachable fails). Both follow
 * the injected clock, so windows and expiries are tested by moving it.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createMemoryKv, createRedisKv, type Kv, type ManualClock } from '@platform/control-plane';
import { describeWithService, dropRedisPrefix, redisState, runId } from '../../helpers/services.ts';

/** Resolves with the next message a handler receives. */
function nextMessage(): { handler: (m: string) => void; received: Promise<string> } {
  let resolve!: (m: string) => void;
  const received = new Promise<string>((r) => { resolve = r; });
  return { handler: (m) => resolve(m), received };
}

function kvContract(open: (clock: ManualClock) => Promise<{ kv: Kv; close(): Promise<void> }>) {
  const clock = createManualClock();
  let kv: Kv;
  let close: () => Promise<void>;
  beforeAll(async () => ({ kv, close } = await open(clock)));
  afterAll(async () => close());

  describe('sliding-window counters', () => {
    it('allows up to the limit within the window, then refuses with the wait until the oldest hit leaves', async () => {
      const results = [];
      for (let i = 0; i < 3; i++) {
        results.push(await kv.hit('rl:a', 3, 60_000));
        clock.advance(10_000);
      }
      expect(results.map((r) => [r.allowed, r.count, r.retryAfterMs])).toEqual([[true, 1, 0], [true, 2, 0], [true, 3, 0]]);
      // now = t0 + 30 s; the oldest hit (t0) leaves the window at t0 + 60 s.
      expect(await kv.hit('rl:a', 3, 60_000)).toEqual({ allowed: false, count: 3, retryAfterMs: 30_000 });
    });

    it('slides: hits leave the window one by one as time moves', async () => {
      // Continuing from above: hits at t0, t0+10s, t0+20s; now t0+30s.
      clock.advance(30_000); // t0 + 60 s: the first hit has left
      expect(await kv.hit('rl:a', 3, 60_000)).toMatchObject({ allowed: true, count: 3 });
      expect(await kv.hit('rl:a', 3, 60_000)).toEqual({ allowed: false, count: 3, retryAfterMs: 10_000 });
      clock.advance(10_000);
      expect(await kv.hit('rl:a', 3, 60_000)).toMatchObject({ allowed: true, count: 3 });
    });

    it('does not count refused hits', async () => {
      expect((await kv.hit('rl:b', 1, 1_000)).allowed).toBe(true);
      for (let i = 0; i < 5; i++) expect((await kv.hit('rl:b', 1, 1_000)).allowed).toBe(false);
      clock.advance(1_000);
      expect(await kv.hit('rl:b', 1, 1_000)).toEqual({ allowed: true, count: 1, retryAfterMs: 0 });
    });

    it('keeps keys apart', async () => {
      expect((await kv.hit('rl:c', 1, 60_000)).allowed).toBe(true);
      expect((await kv.hit('rl:d', 1, 60_000)).allowed).toBe(true);
      expect((await kv.hit('rl:c', 1, 60_000)).allowed).toBe(false);
    });

    it('counts every hit exactly once under concurrency', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => kv.hit('rl:e', 7, 60_000)));
      expect(results.filter((r) => r.allowed)).toHaveLength(7);
      expect(results.filter((r) => r.allowed).map((r) => r.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });
  });

  describe('keys with a time to live', () => {
    it('stores once, refuses while live, and stores again after expiry', async () => {
      expect(await kv.setIfAbsent('idem:1', 'first', 5_000)).toBe(true);
      expect(await kv.setIfAbsent('idem:1', 'second', 5_000)).toBe(false);
      expect(await kv.get('idem:1')).toBe('first');
      clock.advance(4_999);
      expect(await kv.get('idem:1')).toBe('first');
      clock.advance(1);
      expect(await kv.get('idem:1')).toBeNull();
      expect(await kv.setIfAbsent('idem:1', 'third', 5_000)).toBe(true);
      expect(await kv.get('idem:1')).toBe('third');
    });

    it('lets exactly one of many concurrent callers win', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => kv.setIfAbsent('idem:race', `v${i}`, 60_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await kv.get('idem:race')).toBe(`v${results.indexOf(true)}`);
    });

    it('keeps values with separators and unicode intact', async () => {
      const value = JSON.stringify({ a: 'x:y:z', emoji: '👩‍💻', n: 1 });
      expect(await kv.setIfAbsent('idem:json', value, 1_000)).toBe(true);
      expect(await kv.get('idem:json')).toBe(value);
    });

    it('deletes keys and answers null for absent ones', async () => {
      await kv.setIfAbsent('idem:del', 'x', 60_000);
      await kv.del('idem:del');
      expect(await kv.get('idem:del')).toBeNull();
      expect(await kv.get('idem:never')).toBeNull();
      await kv.del('idem:never');
      expect(await kv.setIfAbsent('idem:del', 'y', 60_000)).toBe(true);
    });
  });

  describe('pub/sub', () => {
    it('delivers published messages to every subscriber of the channel, and only that channel', async () => {
      const a = nextMessage();
      const b = nextMessage();
      const other: string[] = [];
      const unA = await kv.subscribe('inval', a.handler);
      const unB = await kv.subscribe('inval', b.handler);
      const unOther = await kv.subscribe('elsewhere', (m) => other.push(m));
      await kv.publish('inval', 'app:1');
      expect(await a.received).toBe('app:1');
      expect(await b.received).toBe('app:1');
      // A message on the other channel arriving proves the first one was not delivered there.
      const probe = nextMessage();
      const unProbe = await kv.subscribe('elsewhere', probe.handler);
      await kv.publish('elsewhere', 'probe');
      await probe.received;
      expect(other).toEqual(['probe']);
      await Promise.all([unA(), unB(), unOther(), unProbe()]);
    });

    it('stops delivering after unsubscribe, while other subscribers keep receiving', async () => {
      const gone: string[] = [];
      const stay = nextMessage();
      const unGone = await kv.subscribe('inval2', (m) => gone.push(m));
      const unStay = await kv.subscribe('inval2', stay.handler);
      await unGone();
      await kv.publish('inval2', 'after');
      expect(await stay.received).toBe('after');
      expect(gone).toEqual([]);
      await unStay();
    });
  });
}

describe('Kv contract: in-process', () => {
  kvContract(async (clock) => {
    const kv = createMemoryKv({ clock });
    return { kv, close: () => kv.close() };
  });
});

describeWithService('Kv contract: Redis', await redisState(), (url) => {
  kvContract(async (clock) => {
    const prefix = `test:${runId()}:`;
    const kv = await createRedisKv({ url, clock, prefix });
    return {
      kv,
      async close() {
        await kv.close();
        await dropRedisPrefix(url, prefix);
      },
    };
  });

  it('sends its scripts as EVALSHA, and their text again only when Redis lost them', async () => {
    const prefix = `test:${runId()}:`;
    const kv = await createRedisKv({ url, clock: createManualClock(), prefix });
    const watcher = new Redis(url);
    const monitor = await watcher.monitor();
    // Only this test's commands: the run's other files share the server.
    const seen: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      // The scripts' own calls are relayed too (from "lua"); the commands sent are what counts.
      if (source !== 'lua' && args.some((arg) => arg.startsWith(prefix))) seen.push(args[0]!.toLowerCase());
    });
    // Everything MONITOR relayed of this test up to now: a marker command is relayed after them.
    const upToNow = async (): Promise<string[]> => {
      const count = seen.length;
      await watcher.get(`${prefix}marker`);
      while (seen.length <= count || seen.at(-1) !== 'get') await new Promise((resolve) => monitor.once('monitor', resolve));
      return seen.splice(0).slice(0, -1);
    };
    try {
      // The first calls: EVALSHA refused (NOSCRIPT) and the text sent once per script, or not at all.
      expect(await kv.setIfAbsent('uow:a', 'open', 60_000)).toBe(true);
      expect((await kv.hit('rl:x', 5, 60_000)).count).toBe(1);
      expect((await upToNow()).filter((c) => c === 'eval').length).toBeLessThanOrEqual(2);
      expect(await kv.setIfAbsent('uow:a', 'closed', 60_000)).toBe(false);
      expect((await kv.hit('rl:x', 5, 60_000)).count).toBe(2);
      expect(await kv.setIfAbsent('uow:c', 'open', 60_000)).toBe(true);
      expect(await upToNow()).toEqual(['evalsha', 'evalsha', 'evalsha']);
      const admin = new Redis(url);
      await admin.script('FLUSH');
      await admin.quit();
      expect(await kv.setIfAbsent('uow:b', 'open', 60_000)).toBe(true);
      expect(await kv.setIfAbsent('uow:b', 'closed', 60_000)).toBe(false);
      // After the flush: EVALSHA refused, the text once, then EVALSHA again.
      expect(await upToNow()).toEqual(['evalsha', 'eval', 'evalsha']);
    } finally {
      monitor.disconnect();
      watcher.disconnect();
      await kv.close();
      await dropRedisPrefix(url, prefix);
    }
  });

  it('fails to open when Redis cannot be reached', async () => {
    await expect(createRedisKv({ url: 'redis://127.0.0.1:1', clock: createManualClock() })).rejects.toThrow();
  });
});
