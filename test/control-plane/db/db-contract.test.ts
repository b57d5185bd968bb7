/**
 * The `Db` contract, run against every implementation: PGlite always, real Postgres whenever
 * DATABASE_URL is set (a fresh schema per run; CI=true and unreachable fails).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb, type Db } from '@platform/control-plane';
import { describeWithService, freshPgSchema, postgresState } from '../../helpers/services.ts';

function dbContract(open: () => Promise<{ db: Db; close(): Promise<void> }>): void {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await open());
    await db.exec(`
      create table items (id text primary key, n bigint not null, doc jsonb, at timestamptz, flag boolean);
      create table counters (id text primary key, value integer not null);
    `);
  });
  afterAll(async () => close());

  it('runs a query with parameters and answers rows and rowCount', async () => {
    const ins = await db.query('insert into items (id, n, doc, at, flag) values ($1, $2, $3::jsonb, $4, $5), ($6, $7, null, null, null)',
      ['a', 41, JSON.stringify({ deep: [1, { x: 'y' }] }), new Date('2026-01-02T03:04:05.678Z'), true, 'b', 2]);
    expect(ins.rowCount).toBe(2);
    const sel = await db.query<{ id: string; n: number; doc: unknown; at: Date | null; flag: boolean | null }>('select * from items order by id');
    expect(sel.rowCount).toBe(2);
    expect(sel.rows[0]).toEqual({ id: 'a', n: 41, doc: { deep: [1, { x: 'y' }] }, at: new Date('2026-01-02T03:04:05.678Z'), flag: true });
    expect(sel.rows[1]).toEqual({ id: 'b', n: 2, doc: null, at: null, flag: null });
    const upd = await db.query('update items set n = n + 1 where id = any($1::text[])', [['a', 'b', 'zzz']]);
    expect(upd.rowCount).toBe(2);
    const none = await db.query('select * from items where id = $1', ['nope']);
    expect(none).toEqual({ rows: [], rowCount: 0 });
  });

  it('reads int8 as a number', async () => {
    const { rows } = await db.query<{ big: number }>('select $1::bigint * 2 as big', [2 ** 40]);
    expect(rows[0]!.big).toBe(2 ** 41);
  });

  it('commits a transaction whose function resolves and returns its value', async () => {
    const value = await db.transaction(async (tx) => {
      await tx.query("insert into counters (id, value) values ('t1', 1)");
      return 'done';
    });
    expect(value).toBe('done');
    expect((await db.query("select value from counters where id = 't1'")).rows).toEqual([{ value: 1 }]);
  });

  it('rolls back a transaction whose function throws, and rethrows', async () => {
    await expect(db.transaction(async (tx) => {
      await tx.query("insert into counters (id, value) values ('t2', 1)");
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect((await db.query("select * from counters where id = 't2'")).rowCount).toBe(0);
  });

  it('nests transactions as savepoints: an inner failure rolls back only the inner part', async () => {
    await db.transaction(async (tx) => {
      await tx.query("insert into counters (id, value) values ('t3', 1)");
      await expect(tx.transaction(async (inner) => {
        await inner.query("insert into counters (id, value) values ('t4', 1)");
        throw new Error('inner');
      })).rejects.toThrow('inner');
      await tx.transaction(async (inner) => inner.query("insert into counters (id, value) values ('t5', 1)"));
    });
    const ids = (await db.query<{ id: string }>("select id from counters where id in ('t3', 't4', 't5') order by id")).rows.map((r) => r.id);
    expect(ids).toEqual(['t3', 't5']);
  });

  it('keeps a failed statement from poisoning the connection', async () => {
    await expect(db.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
    await expect(db.transaction((tx) => tx.query('select 1/0'))).rejects.toMatchObject({ code: '22012' });
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('reports constraint violations with their SQLSTATE', async () => {
    await db.query("insert into counters (id, value) values ('dup', 1)");
    await expect(db.query("insert into counters (id, value) values ('dup', 2)")).rejects.toMatchObject({ code: '23505' });
  });

  it('serializes concurrent read-modify-write transactions that lock the row', async () => {
    await db.query("insert into counters (id, value) values ('race', 0)");
    await Promise.all(Array.from({ length: 8 }, () => db.transaction(async (tx) => {
      const { rows } = await tx.query<{ value: number }>("select value from counters where id = 'race' for update");
      await tx.query("update counters set value = $1 where id = 'race'", [rows[0]!.value + 1]);
    })));
    expect((await db.query("select value from counters where id = 'race'")).rows).toEqual([{ value: 8 }]);
  });

  it('does not show uncommitted writes outside the transaction', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => { inserted = r; });
    const tx = db.transaction(async (t) => {
      await t.query("insert into counters (id, value) values ('hidden', 1)");
      inserted();
      await gate;
    });
    await insertedP;
    // PGlite has one connection: the outer read waits until the transaction ends, so it cannot see
    // the row early either. Postgres answers at once without it.
    const outside = db.query("select * from counters where id = 'hidden'");
    const raced = await Promise.race([outside.then((r) => r.rowCount), new Promise<'waiting'>((r) => setImmediate(() => r('waiting')))]);
    expect(raced === 0 || raced === 'waiting').toBe(true);
    release();
    await tx;
    await outside;
    expect((await db.query("select * from counters where id = 'hidden'")).rowCount).toBe(1);
  });

  it('refuses to close the database from a transaction handle', async () => {
    await db.transaction(async (tx) => {
      await expect(tx.close()).rejects.toThrow(/transaction/);
    });
  });
}

describe('Db contract: PGlite', () => {
  dbContract(async () => {
    const db = await createPgliteDb();
    return { db, close: () => db.close() };
  });
});

describeWithService('Db contract: Postgres', await postgresState(), (url) => {
  dbContract(async () => {
    const fresh = await freshPgSchema(url);
    return { db: fresh.db, close: fresh.drop };
  });
});
