/**
 * The pool's statement timeout on real Postgres (core/db/pg-db.ts): a statement past it is
 * cancelled by the server and reads as "the database is unavailable for now" (a retryable 503 at
 * the edge), the connection serves the next statement, and migrations run without the limit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgDb, type Db } from '@platform/control-plane';
import { migrate } from '../../../control-plane/src/core/db/migrate.ts';
import { isDatabaseUnavailable } from '../../../control-plane/src/core/db/unavailable.ts';
import { describeWithService, freshPgSchema, postgresState } from '../../helpers/services.ts';

describeWithService('Postgres statement timeout', await postgresState(), (url) => {
  let fresh: Awaited<ReturnType<typeof freshPgSchema>>;
  let db: Db;
  let dir: string;
  beforeAll(async () => {
    fresh = await freshPgSchema(url);
    // One connection: the cancelled statement's connection is the one that must serve again.
    db = createPgDb({ connectionString: url, schema: fresh.schema, max: 1, statementTimeoutMs: 150 });
    dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  });
  afterAll(async () => {
    await db.close();
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cancels a statement past the limit as unavailable (57014), and the connection serves the next one', async () => {
    const err = await db.query('select pg_sleep(2)').then(() => null, (e: unknown) => e);
    expect((err as { code?: string }).code).toBe('57014');
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('a statement inside the limit runs', async () => {
    expect((await db.query('select pg_sleep(0.01)')).rows).toHaveLength(1);
  });

  it('migrations are not limited', async () => {
    writeFileSync(join(dir, '001_slow.sql'), 'select pg_sleep(0.4);\ncreate table slow_done (id int);\n');
    expect(await migrate(db, { dir })).toEqual(['001_slow.sql']);
    expect((await db.query('select count(*)::int as n from slow_done')).rows).toEqual([{ n: 0 }]);
  });
});
