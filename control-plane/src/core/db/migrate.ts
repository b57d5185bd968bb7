/**
 * @module core/db/migrate
 * Numbered `.sql` files (`001_name.sql`, …) applied in order, each in its own transaction and
 * recorded in `schema_migrations` with a checksum. Every step takes a transaction-scoped advisory
 * lock first, so replicas starting at once apply each file exactly once; the others wait, see the
 * row and move on. Applied files are immutable: a changed checksum stops the start.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../log/logger.ts';
import type { Db } from './db.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

const FILE = /^(\d{3,})_[a-z0-9_]+\.sql$/;

// Scoped to the current schema, so test runs in separate schemas do not wait on each other.
const LOCK = `select pg_advisory_xact_lock(hashtext('platform:migrations:' || current_schema()))`;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const seen = new Set<number>();
  const out: Migration[] = [];
  for (const name of files) {
    const match = FILE.exec(name);
    if (!match) throw new Error(`Migration file name ${name} does not look like 001_name.sql`);
    const version = Number(match[1]);
    if (seen.has(version)) throw new Error(`Two migrations carry number ${version}`);
    seen.add(version);
    const sql = await readFile(`${dir}/${name}`, 'utf8');
    out.push({ version, name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

/**
 * Applies every migration not yet recorded. Returns the names it applied (empty when up to date).
 *
 * @example
 * await migrate(db, { logger });
 */
export async function migrate(db: Db, options: { dir?: string; logger?: Logger } = {}): Promise<string[]> {
  const migrations = await readMigrations(options.dir);
  await db.transaction(async (tx) => {
    await tx.query(LOCK);
    await tx.exec(`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      // A migration may rewrite a large table: the pool's statement timeout does not apply to it.
      await tx.exec('set local statement_timeout = 0');
      await tx.query(LOCK);
      const { rows } = await tx.query<{ checksum: string; name: string }>(
        'select name, checksum from schema_migrations where version = $1', [m.version]);
      const row = rows[0];
      if (row) {
        if (row.checksum !== m.checksum) {
          throw new Error(`Migration ${m.name} changed after it was applied (as ${row.name}); add a new migration instead`);
        }
        return false;
      }
      await tx.exec(m.sql);
      await tx.query('insert into schema_migrations (version, name, checksum) values ($1, $2, $3)', [m.version, m.name, m.checksum]);
      return true;
    });
    if (done) {
      applied.push(m.name);
      options.logger?.info({ migration: m.name }, 'migration applied');
    }
  }
  return applied;
}
