/**
 * @module db/pg-db
 * `Db` on real Postgres through a `pg` pool.
 */
import pg from 'pg';
import type { Logger } from '../log/logger.ts';
import { transactionDb, type Db, type Queryable, type QueryResult } from './db.ts';

export interface PgDbOptions {
  connectionString: string;
  /** Schema used as `search_path` (tests run each in a fresh schema). */
  schema?: string;
  max?: number;
  logger?: Logger;
}

// int8 as number, like PGlite: our counters and sizes stay far below 2^53.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * @example
 * const db = createPgDb({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
 * const { rows } = await db.query<{ one: number }>('select 1 as one');
 */
export function createPgDb(options: PgDbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${quoteIdent(options.schema)}` }),
  });
  // An idle client losing its connection emits here; without a listener the process would crash.
  pool.on('error', (err) => options.logger?.warn({ err }, 'postgres idle client error'));

  const run = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult<T>> => {
    const res = await client.query(sql, params as unknown[] | undefined);
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
  };

  return {
    query: (sql, params) => run(pool, sql, params),
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      const conn: Queryable = {
        query: (sql, params) => run(client, sql, params),
        exec: async (sql) => {
          await client.query(sql);
        },
      };
      let broken: Error | undefined;
      try {
        await client.query('begin');
        const result = await fn(transactionDb(conn));
        await client.query('commit');
        return result;
      } catch (err) {
        try {
          await client.query('rollback');
        } catch (rollbackErr) {
          // The connection itself failed: do not hand it back to the pool.
          broken = rollbackErr as Error;
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
