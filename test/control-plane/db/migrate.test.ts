/**
 * Migrations: applied in order, recorded, idempotent (a second run applies nothing), safe when two
 * processes migrate one Postgres at once, and immutable once applied.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgDb, createPgliteDb, migrate, type Db } from '@platform/control-plane';
import { describeWithService, freshPgSchema, postgresState } from '../../helpers/services.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'migrations-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const writeMigrations = async (files: Record<string, string>) => {
  for (const f of await readdir(dir)) await rm(join(dir, f));
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
};

const TWO = {
  '001_first.sql': 'create table first (id int primary key);\ninsert into first values (1);',
  '002_second.sql': 'create table second (id int primary key references first (id));',
};

function migrationContract(open: () => Promise<{ db: Db; close(): Promise<void> }>) {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await open()));
  afterAll(async () => close());

  it('applies the real migrations, then nothing on a second run', async () => {
    const first = await migrate(db);
    expect(first.length).toBeGreaterThan(0);
    expect(first[0]).toMatch(/^001_/);
    expect(await migrate(db)).toEqual([]);
    const { rows } = await db.query<{ version: number }>('select version from schema_migrations order by version');
    expect(rows.map((r) => r.version)).toEqual(first.map((name) => Number(name.slice(0, 3))));
    // The schema is really there.
    expect((await db.query('select * from workspaces')).rowCount).toBe(0);
  });
}

describe('migrations: PGlite', () => {
  migrationContract(async () => {
    const db = await createPgliteDb();
    return { db, close: () => db.close() };
  });

  describe('with a migrations directory of our own', () => {
    let db: Db;
    afterEach(async () => db.close());

    it('applies files in order, each once, and records them', async () => {
      db = await createPgliteDb();
      await writeMigrations(TWO);
      expect(await migrate(db, { dir })).toEqual(['001_first.sql', '002_second.sql']);
      expect(await migrate(db, { dir })).toEqual([]);
      await writeMigrations({ ...TWO, '003_third.sql': 'alter table first add column name text;' });
      expect(await migrate(db, { dir })).toEqual(['003_third.sql']);
      expect((await db.query('select id from first')).rows).toEqual([{ id: 1 }]);
    });

    it('rolls back a failing migration entirely and records nothing for it', async () => {
      db = await createPgliteDb();
      await writeMigrations({ ...TWO, '003_broken.sql': 'create table third (id int);\nselect * from does_not_exist;' });
      await expect(migrate(db, { dir })).rejects.toMatchObject({ code: '42P01' });
      expect((await db.query("select * from information_schema.tables where table_name = 'third'")).rowCount).toBe(0);
      expect((await db.query<{ name: string }>('select name from schema_migrations order by version')).rows.map((r) => r.name))
        .toEqual(['001_first.sql', '002_second.sql']);
    });

    it('refuses to start when an applied migration was edited', async () => {
      db = await createPgliteDb();
      await writeMigrations(TWO);
      await migrate(db, { dir });
      await writeMigrations({ ...TWO, '002_second.sql': 'create table second (id int);' });
      await expect(migrate(db, { dir })).rejects.toThrow(/changed after it was applied/);
    });

    it('rejects badly named or duplicate-numbered files', async () => {
      db = await createPgliteDb();
      await writeMigrations({ 'first.sql': 'select 1;' });
      await expect(migrate(db, { dir })).rejects.toThrow(/does not look like/);
      await writeMigrations({ '001_a.sql': 'select 1;', '001_b.sql': 'select 1;' });
      await expect(migrate(db, { dir })).rejects.toThrow(/Two migrations/);
    });
  });
});

describeWithService('migrations: Postgres', await postgresState(), (url) => {
  migrationContract(async () => {
    const fresh = await freshPgSchema(url);
    return { db: fresh.db, close: fresh.drop };
  });

  it('applies each file once when two processes migrate at the same time', async () => {
    const fresh = await freshPgSchema(url);
    // A second pool on the same schema stands in for a second replica starting at once.
    const other = createPgDb({ connectionString: url, schema: fresh.schema, max: 2 });
    try {
      const [a, b] = await Promise.all([migrate(fresh.db), migrate(other)]);
      const all = [...a, ...b].sort();
      const { rows } = await fresh.db.query<{ name: string }>('select name from schema_migrations order by version');
      expect(all).toEqual(rows.map((r) => r.name).sort());
      expect(new Set(all).size).toBe(all.length);
    } finally {
      await other.close();
      await fresh.drop();
    }
  });
});
