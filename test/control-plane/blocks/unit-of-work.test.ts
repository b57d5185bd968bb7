/**
 * The unit of work opened lazily (core/unit-of-work), on real Postgres and the stack's key-value
 * store: a click whose handler stages nothing writes nothing to the unit-of-work tables (counted by
 * a statement trigger on them); a unit opens at its first stage; whichever comes first of the first
 * stage and the action's end decides, and every stage after the end answers false (the caller
 * commits directly). Without the key-value store (a Redis of the suite's own, stopped or paused) an
 * action still ends, on the staged path, and a stage after it still answers false.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { LIMITS } from '@platform/sdk';
import { createRedisKv } from '../../../control-plane/src/core/kv/redis-kv.ts';
import { createUnitOfWork, KV_WAIT_MS } from '../../../control-plane/src/core/unit-of-work/unit-of-work.ts';
import { startPrivateRedis, redisServerBin } from '../../helpers/private-redis.ts';
import { nameNeeding } from '../../helpers/services.ts';
import { click, startBoardWorld, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld({ db: 'postgres' });
  await w.stack.db.query(`
    create table uow_writes (tbl text not null);
    create function uow_count() returns trigger language plpgsql as $$ begin insert into uow_writes values (tg_table_name); return null; end $$;
    create trigger uow_units after insert or update or delete on units_of_work for each statement execute function uow_count();
    create trigger uow_items after insert or update or delete on unit_of_work_items for each statement execute function uow_count();`);
});
afterAll(async () => {
  await w?.stop();
});

const writes = async () => (await w.stack.db.query<{ n: number }>('select count(*)::int as n from uow_writes')).rows[0]!.n;
const rowsOf = async (key: string) => (await w.stack.db.query<{ n: number }>('select count(*)::int as n from units_of_work where key = $1', [key])).rows[0]!.n;
const freshKey = () => randomBytes(16).toString('hex');
const uow = () => w.stack.controlPlane.apps.unitOfWork;

describe('a click that stages nothing', () => {
  it('is applied without one write to the unit-of-work tables', async () => {
    const block = await w.insert();
    const before = await writes();
    for (let i = 1; i <= 3; i++) {
      const out = await click(w.ws.client, block.id, 'Add one');
      expect(out.outcome).toBe('applied');
      expect(out.block.summary).toBe(`Board: ${i}`);
    }
    expect(await writes()).toBe(before);
  });
});

describe('the unit of one action', () => {
  it('closed before anything was staged: nothing is written, and a later stage answers false', async () => {
    const key = freshKey();
    const before = await writes();
    expect(await uow().items(w.stack.db, key)).toEqual([]);
    expect(await uow().endAction(key)).toBe('nothing-staged');
    expect(await uow().items(w.stack.db, key)).toBeNull();
    expect(await uow().stage(w.stack.db, key, 'queue.send', { late: true })).toBe(false);
    expect(await writes()).toBe(before);
    expect(await rowsOf(key)).toBe(0);
  });

  it('opened by its first stage: the close says so, the apply runs the items in order, and a stage after it answers false', async () => {
    const key = freshKey();
    expect(await uow().stage(w.stack.db, key, 'test.a', { n: 1 })).toBe(true);
    expect(await uow().stage(w.stack.db, key, 'test.b', { n: 2 })).toBe(true);
    expect((await uow().items(w.stack.db, key))!.map((i) => i.payload)).toEqual([{ n: 1 }, { n: 2 }]);
    expect((await uow().items(w.stack.db, key, 'test.b'))!.map((i) => i.payload)).toEqual([{ n: 2 }]);
    expect(await uow().endAction(key)).toBe('staged');
    // No applier is registered for these test kinds: the apply throws and rolls back, then the unit is discarded.
    await expect(w.stack.db.transaction((tx) => uow().apply(tx, key))).rejects.toThrow(/No applier for staged test.a/);
    await uow().discard(w.stack.db, key);
    expect(await rowsOf(key)).toBe(0);
    expect(await uow().items(w.stack.db, key)).toBeNull();
    expect(await uow().stage(w.stack.db, key, 'test.a', { n: 3 })).toBe(false);
    expect(await rowsOf(key)).toBe(0);
  });

  it('a unit whose end found it open but empty (a stage set the marker, its rows not written yet) is applied as empty, and closed after', async () => {
    const key = freshKey();
    expect(await w.stack.kv.setIfAbsent(`uow:${key}`, 'open', 60_000)).toBe(true);
    expect(await uow().endAction(key)).toBe('staged');
    expect(await w.stack.db.transaction((tx) => uow().apply(tx, key))).toBe(0);
    expect(await rowsOf(key)).toBe(0);
    expect(await uow().stage(w.stack.db, key, 'test.a', { n: 1 })).toBe(false);
  });

  it('a stage racing a discard that holds the key\'s lock answers false once the discard committed', async () => {
    const key = freshKey();
    expect(await uow().stage(w.stack.db, key, 'queue.send', { first: true })).toBe(true);
    expect(await uow().endAction(key)).toBe('staged');
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    // The apply holds the key's lock (and has closed the unit) while the late stage asks for it.
    let applying!: () => void;
    const locked = new Promise<void>((resolve) => { applying = resolve; });
    const apply = w.stack.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [key]);
      await uow().discard(tx, key);
      applying();
      await held;
    });
    await locked;
    const late = uow().stage(w.stack.db, key, 'queue.send', { late: true });
    release();
    await apply;
    expect(await late).toBe(false);
    expect(await rowsOf(key)).toBe(0);
  });
});

/** A unit of work on a Redis of this suite's own (so it can be stopped or paused) and the stack's database. */
async function ownRedisUnitOfWork() {
  const redis = await startPrivateRedis();
  const kv = await createRedisKv({ url: redis.url, clock: w.stack.clock, prefix: `uow-test:${freshKey()}:` });
  const unitOfWork = createUnitOfWork({ kv, clock: w.stack.clock, appliers: {} });
  return { redis, kv, unitOfWork };
}

const tombstones = async (key: string) => (await w.stack.db.query<{ n: number }>(
  'select count(*)::int as n from units_of_work u where u.key = $1 and not exists (select 1 from unit_of_work_items i where i.unit_key = u.key)', [key],
)).rows[0]!.n;

describe.skipIf(redisServerBin() === null)(nameNeeding('without the key-value store', { redis: redisServerBin() }), () => {
  it('an action ends on the staged path once Redis is gone, its unit stays closed, and a stage after Redis came back (empty) answers false', async () => {
    const own = await ownRedisUnitOfWork();
    const key = freshKey();
    try {
      expect(await own.unitOfWork.stage(w.stack.db, key, 'queue.send', { n: 1 })).toBe(true);
      await own.redis.stop();
      const started = performance.now();
      expect(await own.unitOfWork.endAction(key)).toBe('staged');
      // Bounded by the store's wait (a refused connection fails sooner), never by its outage.
      expect(performance.now() - started).toBeLessThan(KV_WAIT_MS + 1_000);
      await own.unitOfWork.discard(w.stack.db, key);
      expect(await tombstones(key)).toBe(1);
      expect(await own.unitOfWork.items(w.stack.db, key).catch(() => 'unreachable')).toBe('unreachable');
    } finally {
      await own.kv.close();
      await own.redis.stop();
    }
    // The store comes back without the unit's markers (here: the stack's, which never saw them): the tombstone still closes the unit.
    expect(await uow().stage(w.stack.db, key, 'queue.send', { late: true })).toBe(false);
    expect(await tombstones(key)).toBe(1);
    // Once no token can stage in it, the sweeper drops it.
    w.stack.clock.advance(LIMITS.tokens.interactionTokenSeconds * 1000);
    expect(await uow().sweep(w.stack.db, new Date(w.stack.clock.now()))).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(key)).toBe(0);
  });

  it('a store that hangs holds an action\'s end for at most its wait: the unit is applied as staged and left closed', async () => {
    const own = await ownRedisUnitOfWork();
    const key = freshKey();
    const admin = new Redis(own.redis.url);
    try {
      await admin.call('client', 'pause', '3000', 'ALL');
      const started = performance.now();
      expect(await own.unitOfWork.endAction(key)).toBe('staged');
      expect(await w.stack.db.transaction((tx) => own.unitOfWork.apply(tx, key))).toBe(0);
      expect(performance.now() - started).toBeLessThan(3 * KV_WAIT_MS + 1_000);
      expect(await tombstones(key)).toBe(1);
      expect(await uow().stage(w.stack.db, key, 'queue.send', { late: true })).toBe(false);
    } finally {
      await admin.call('client', 'unpause').catch(() => undefined);
      admin.disconnect();
      await own.kv.close();
      await own.redis.stop();
    }
  });

  it('a click while the stack\'s Redis hangs is applied, durably, on the staged path: no 5xx of ours', async () => {
    const redis = await startPrivateRedis();
    const admin = new Redis(redis.url);
    let world: BoardWorld | undefined;
    try {
      world = await startBoardWorld({ db: 'postgres', kv: 'redis', redisUrl: redis.url });
      const block = await world.insert();
      expect((await click(world.ws.client, block.id, 'Add one')).outcome).toBe('applied');
      const units = async () => (await world!.stack.db.query<{ n: number }>('select count(*)::int as n from units_of_work')).rows[0]!.n;
      expect(await units()).toBe(0);
      // Paused far longer than the click may take: it is answered by the store's wait, not by the pause's end.
      await admin.call('client', 'pause', '20000', 'WRITE');
      const started = performance.now();
      const out = await click(world.ws.client, block.id, 'Add one');
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(out.outcome).toBe('applied');
      expect(out.block.summary).toBe('Board: 2');
      // The action's unit was closed by a tombstone, the store being away.
      expect(await units()).toBe(1);
      const stored = await world.stack.db.query<{ summary: string }>('select summary from blocks where id = $1', [block.id]);
      expect(stored.rows[0]!.summary).toBe('Board: 2');
    } finally {
      await admin.call('client', 'unpause').catch(() => undefined);
      admin.disconnect();
      await world?.stop();
      await redis.stop();
    }
  });
});
