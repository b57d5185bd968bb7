/**
 * @module core/db/pglite-db
 * `Db` on PGlite, Postgres compiled to WebAssembly running in this process: the embedded default.
 * It has one connection; PGlite queues queries, and a transaction holds the queue until it ends.
 */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { transactionDb, type Db, type Queryable } from './db.ts';

export interface PgliteDbOptions {
  /** Directory of the database files; omitted: in memory (tests). */
  dataDir?: string;
}

/**
 * @example
 * const db = await createPgliteDb({ dataDir: '.data/pglite' });
 */
export async function createPgliteDb(options: PgliteDbOptions = {}): Promise<Db> {
  const lite = options.dataDir === undefined ? await PGlite.create() : await PGlite.create(options.dataDir);
  const connOf = (q: PGlite | Transaction): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await q.query<T>(sql, params as unknown[] | undefined);
      return { rows: res.rows, rowCount: res.rowCount ?? res.affectedRows ?? 0 };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const root = connOf(lite);
  return {
    query: (sql, params) => root.query(sql, params),
    exec: (sql) => root.exec(sql),
    transaction: (fn) => lite.transaction((tx) => fn(transactionDb(connOf(tx)))),
    close: () => lite.close(),
  };
}
