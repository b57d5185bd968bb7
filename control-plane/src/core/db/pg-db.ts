/**
 * @module core/db/pg-db
 * `Db` on real Postgres through a `pg` pool.
 *
 * Statements with parameters run as named prepared statements: each connection parses a statement
 * once and Postgres may keep its plan, where an unnamed statement is parsed and planned again on
 * every call (for the joins of the hot paths planning costs several times the execution). The
 * name is derived from the text, so the same text always maps to the same statement. Distinct texts
 * are bounded (`maxPrepared`; past it statements run unnamed), so SQL built at run time cannot grow
 * every connection without limit. A prepared statement whose result columns changed under it
 * (`select *` across a migration made by another replica) fails once with "cached plan must not
 * change result type"; its text is then never prepared again, and outside a transaction the call is
 * retried unnamed.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../log/logger.ts';
import { transactionDb, type Db, type Queryable, type QueryResult } from './db.ts';

export interface PgDbOptions {
  connectionString: string;
  /** Schema used as `search_path` (tests run each in a fresh schema). */
  schema?: string;
  max?: number;
  logger?: Logger;
  /** Distinct statement texts prepared per pool (default 1000; 0: none, e.g. behind a transaction-mode pooler). */
  maxPrepared?: number;
  /**
   * Longest a statement may run before the server cancels it (default 30 s; 0: no limit). A
   * statement stuck behind a lock or on an overloaded server would otherwise hold its connection,
   * and everything queued behind it (a group commit's batch), for ever. Migrations lift it.
   */
  statementTimeoutMs?: number;
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
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    // A connection whose server vanished without a reset is found by TCP keepalive, not left to hang.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${quoteIdent(options.schema)}` }),
  });
  // An idle client losing its connection emits here; without a listener the process would crash.
  pool.on('error', (err) => options.logger?.warn({ err }, 'postgres idle client error'));

  const maxPrepared = options.maxPrepared ?? 1000;
  const names = new Map<string, string | null>();
  const nameOf = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= maxPrepared) return undefined;
      name = `q_${createHash('sha256').update(sql).digest('base64url').slice(0, 24)}`;
      names.set(sql, name);
    }
    return name ?? undefined;
  };

  const run = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params: unknown[] | undefined, retry: boolean): Promise<QueryResult<T>> => {
    // Without parameters a text may hold several statements (simple protocol): it stays unnamed.
    const name = params === undefined || params.length === 0 ? undefined : nameOf(sql);
    try {
      const res = name === undefined ? await client.query(sql, params) : await client.query({ name, text: sql, values: params });
      return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
    } catch (err) {
      if (name === undefined || !isStalePlan(err)) throw err;
      names.set(sql, null);
      options.logger?.warn({ err }, 'a prepared statement went stale (schema changed); it runs unprepared from now on');
      if (!retry) throw err;
      return run(client, sql, params, false);
    }
  };

  return {
    query: (sql, params) => run(pool, sql, params, true),
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      // The pool listens for a checked-out client's errors no more: a server that goes away
      // mid-transaction (a crash, a restart, a failover) would emit an unheard 'error' and end
      // the process. Heard here, the pending statement fails and the client is not reused.
      let lost: Error | undefined;
      let broken: Error | undefined;
      const onLost = (err: Error) => {
        lost = err;
        options.logger?.warn({ err }, 'postgres connection lost inside a transaction');
      };
      client.on('error', onLost);
      const conn: Queryable = {
        // Inside a transaction a failed statement aborts it: no retry there.
        query: (sql, params) => run(client, sql, params, false),
        exec: async (sql) => {
          await client.query(sql);
        },
      };
      try {
        await client.query('begin');
        const result = await fn(transactionDb(conn));
        await client.query('commit');
        return result;
      } catch (err) {
        if (lost === undefined) {
          try {
            await client.query('rollback');
          } catch (rollbackErr) {
            // The connection itself failed: do not hand it back to the pool.
            broken = rollbackErr as Error;
          }
        }
        throw err;
      } finally {
        client.removeListener('error', onLost);
        client.release(broken ?? lost);
      }
    },
    close: () => pool.end(),
  };
}

/** The error of a prepared statement whose result columns changed (SQLSTATE 0A000). */
function isStalePlan(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type');
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
