/**
 * @module core/db/open-db
 * Picks the database from config (Postgres when DATABASE_URL is set, else PGlite under DATA_DIR)
 * and brings its schema up to date.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log/logger.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { createPgDb } from './pg-db.ts';
import { createPgliteDb } from './pglite-db.ts';

/**
 * @example
 * const db = await openDb(config, logger);
 */
export async function openDb(config: Pick<Config, 'databaseUrl' | 'databasePreparedStatements' | 'databaseStatementTimeoutMs' | 'dataDir'>, logger: Logger): Promise<Db> {
  let db: Db;
  if (config.databaseUrl !== null) {
    db = createPgDb({ connectionString: config.databaseUrl, logger, maxPrepared: config.databasePreparedStatements, statementTimeoutMs: config.databaseStatementTimeoutMs });
  } else {
    const dir = join(config.dataDir, 'pglite');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    db = await createPgliteDb({ dataDir: dir });
  }
  try {
    await migrate(db, { logger });
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
