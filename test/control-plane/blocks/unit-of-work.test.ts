/**
 * The unit of work opened lazily (core/unit-of-work), on real Postgres and the stack's key-value
 * store: a click whose handler stages nothing writes nothing to the unit-of-work tables (counted by
 * a statement trigger on them); a unit opens at its first stage; whichever comes first of the first
 * stage and the action's close decides, and every stage after the close answers false (the caller
 * commits directly).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
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
    expect(await uow().close(key)).toBe('empty');
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
    expect(await uow().close(key)).toBe('staged');
    // No applier is registered for these test kinds: the apply throws and rolls back, then the unit is discarded.
    await expect(w.stack.db.transaction((tx) => uow().apply(tx, key))).rejects.toThrow(/No applier for staged test.a/);
    await uow().discard(w.stack.db, key);
    expect(await rowsOf(key)).toBe(0);
    expect(await uow().items(w.stack.db, key)).toBeNull();
    expect(await uow().stage(w.stack.db, key, 'test.a', { n: 3 })).toBe(false);
    expect(await rowsOf(key)).toBe(0);
  });

  it('a unit whose close found it open but empty is applied as empty, and closed after', async () => {
    const key = freshKey();
    await uow().open(w.stack.db, key, new Date(w.stack.clock.now() + 60_000));
    expect(await uow().close(key)).toBe('staged');
    expect(await w.stack.db.transaction((tx) => uow().apply(tx, key))).toBe(0);
    expect(await rowsOf(key)).toBe(0);
    expect(await uow().stage(w.stack.db, key, 'test.a', { n: 1 })).toBe(false);
  });

  it('a stage racing a discard that holds the key\'s lock answers false once the discard committed', async () => {
    const key = freshKey();
    expect(await uow().stage(w.stack.db, key, 'queue.send', { first: true })).toBe(true);
    expect(await uow().close(key)).toBe('staged');
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
