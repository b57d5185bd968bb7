/**
 * @module core/db/db
 * The one storage interface: plain SQL with `$1` parameters, implemented by `pg` (real Postgres)
 * and by PGlite (the embedded default). Both return the same JS types: int8 as number,
 * timestamptz as Date, json/jsonb parsed.
 */

export interface QueryResult<T> {
  rows: T[];
  /** Rows returned by a SELECT, or changed by INSERT/UPDATE/DELETE. */
  rowCount: number;
}

export interface Db {
  /** One statement, parameters as `$1`, `$2`, …. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** A script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. Inside,
   * use only `tx` (the embedded database has a single connection: the outer handle waits for the
   * transaction to end). Nested calls on `tx` become savepoints.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What a driver offers on one connection; the transaction helpers are built on it. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  exec(sql: string): Promise<void>;
}

/** SQLSTATE of a database error (both drivers set `code`). */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (err: unknown): boolean => sqlState(err) === '23505';

/** A row referenced something that no longer exists (deleted between a check and an insert). */
export const isForeignKeyViolation = (err: unknown): boolean => sqlState(err) === '23503';

/**
 * A `Db` over one connection that is already inside a transaction: nested transactions are
 * savepoints, and closing is refused (the owner of the connection ends it).
 */
export function transactionDb(conn: Queryable, depth = 1): Db {
  return {
    query: (sql, params) => conn.query(sql, params),
    exec: (sql) => conn.exec(sql),
    async transaction(fn) {
      const name = `sp_${depth}`;
      await conn.query(`savepoint ${name}`);
      try {
        const result = await fn(transactionDb(conn, depth + 1));
        await conn.query(`release savepoint ${name}`);
        return result;
      } catch (err) {
        await conn.query(`rollback to savepoint ${name}`);
        throw err;
      }
    },
    close: () => Promise.reject(new Error('A transaction handle cannot close the database')),
  };
}
