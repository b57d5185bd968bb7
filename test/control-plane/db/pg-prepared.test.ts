/**
 * Statements with parameters run as named prepared statements on real Postgres (core/db/pg-db.ts):
 * parsed once per connection, bounded in number, and a statement whose result columns changed
 * under it (a migration by another replica) goes unprepared instead of failing from then on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgDb, type Db } from '@platform/control-plane';
import { describeWithService, freshPgSchema, postgresState } from '../../helpers/services.ts';

const prepared = (tx: Db) => tx.query<{ statement: string }>('select statement from pg_prepared_statements').then((r) => r.rows.map((row) => row.statement));

describeWithService('Postgres prepared statements', await postgresState(), (url) => {
  let fresh: Awaited<ReturnType<typeof freshPgSchema>>;
  // One connection: what a statement left on it is what the next one sees.
  let db: Db;
  beforeAll(async () => {
    fresh = await freshPgSchema(url);
    db = createPgDb({ connectionString: url, schema: fresh.schema, max: 1, maxPrepared: 3 });
    await db.exec('create table items (a int primary key, b text)');
  });
  afterAll(async () => {
    await db.close();
    await fresh.drop();
  });

  it('prepares a statement with parameters once, and keeps statements without them unnamed', async () => {
    const sql = 'select b from items where a = $1';
    await db.query('insert into items (a, b) values ($1, $2), ($3, $4)', [1, 'one', 2, 'two']);
    expect((await db.query(sql, [1])).rows).toEqual([{ b: 'one' }]);
    expect((await db.query(sql, [2])).rows).toEqual([{ b: 'two' }]);
    await db.query('select count(*) from items');
    const statements = await db.transaction(prepared);
    expect(statements.filter((s) => s === sql)).toHaveLength(1);
    expect(statements).not.toContain('select count(*) from items');
  });

  it('prepares at most maxPrepared distinct texts; the others still run', async () => {
    for (let i = 0; i < 5; i++) expect((await db.query(`select $1::int + ${i} as n`, [1])).rows).toEqual([{ n: 1 + i }]);
    expect((await db.transaction(prepared)).length).toBeLessThanOrEqual(3);
  });

  it('runs a statement whose result columns changed under it unprepared from then on', async () => {
    const other = createPgDb({ connectionString: url, schema: fresh.schema, max: 1 });
    try {
      await other.exec('create table moving (a int primary key)');
      await other.query('insert into moving (a) values ($1)', [1]);
      const inside = 'select * from moving where a >= $1';
      const outside = 'select * from moving where a = $1';
      await other.transaction((tx) => tx.query(inside, [1]));
      await other.exec('alter table moving add column b text');
      // Inside a transaction the failure aborts it; the next call runs unprepared.
      await expect(other.transaction((tx) => tx.query(inside, [1]))).rejects.toMatchObject({ code: '0A000' });
      expect((await other.transaction((tx) => tx.query(inside, [1]))).rows).toEqual([{ a: 1, b: null }]);
      // Outside a transaction the call is tried again at once.
      await other.query(outside, [1]);
      await other.exec('alter table moving add column c text');
      expect((await other.query(outside, [1])).rows).toEqual([{ a: 1, b: null, c: null }]);
    } finally {
      await other.close();
    }
  });
});
