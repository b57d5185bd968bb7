/**
 * A transaction's connection dropping while the transaction awaits other work (the database
 * restarted, the backend was terminated) fails that transaction and nothing else: pg emits 'error'
 * on the checked-out client, which without a listener would crash the whole process (found by the
 * fleet chaos test: a control plane died when PostgreSQL restarted). The pool goes on serving.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pino } from 'pino';
import { createPgDb, type Db } from '@platform/control-plane';
import { describeWithService, freshPgSchema, postgresState } from '../../helpers/services.ts';

describeWithService('Postgres connection lost inside a transaction', await postgresState(), (url) => {
  let fresh: Awaited<ReturnType<typeof freshPgSchema>>;
  let db: Db;
  let noticed: (() => void) | undefined;
  beforeAll(async () => {
    fresh = await freshPgSchema(url);
    // The warning the transaction logs when its connection drops is the event this test waits on.
    const logger = pino({ level: 'warn' }, { write: (line: string) => { if (line.includes('connection lost inside a transaction')) noticed?.(); } });
    db = createPgDb({ connectionString: url, schema: fresh.schema, max: 2, logger });
  });
  afterAll(async () => {
    await db.close();
    await fresh.drop();
  });

  it('fails the transaction, keeps the process, and the pool serves the next query', async () => {
    const dropped = new Promise<void>((resolve) => { noticed = resolve; });
    const outcome = db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('select pg_backend_pid() as pid');
      await db.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      // Idle between statements when the connection goes: the case that crashed the process.
      await dropped;
      await tx.query('select 1');
    });
    await expect(outcome).rejects.toThrow();
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
