/**
 * Real Postgres and Redis for tests: where they are (DATABASE_URL / REDIS_URL, else the private
 * servers helpers/services.global.ts started for the run), whether they are reachable, a fresh
 * schema or key prefix per run, and the CI rule: when CI=true, a configured service that cannot be
 * reached FAILS the suite (it never skips silently).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { describe, inject, it } from 'vitest';
import { createPgDb, type Db } from '@platform/control-plane';

export type ServiceState =
  | { kind: 'absent'; reason: string }
  | { kind: 'up'; url: string }
  | { kind: 'down'; url: string; error: string };

export const IN_CI = process.env.CI === 'true';

export const runId = (): string => `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

const given = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

/** DATABASE_URL, else the run's private PostgreSQL, else null (no binaries: see `absentReason`). */
export function postgresUrl(): string | null {
  return given(process.env.DATABASE_URL) ?? inject('privatePostgresUrl') ?? null;
}

/** REDIS_URL, else the run's private Redis, else null. */
export function redisUrl(): string | null {
  return given(process.env.REDIS_URL) ?? inject('privateRedisUrl') ?? null;
}

/** Why a suite needing `service` skips here (printed in its name). */
export function absentReason(service: 'postgres' | 'redis'): string {
  return inject('servicesAbsent')?.[service] ?? `${service} is not configured`;
}

export async function postgresState(): Promise<ServiceState> {
  const url = postgresUrl();
  if (url === null) return { kind: 'absent', reason: absentReason('postgres') };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { kind: 'up', url };
  } catch (err) {
    return { kind: 'down', url, error: (err as Error).message };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function redisState(): Promise<ServiceState> {
  const url = redisUrl();
  if (url === null) return { kind: 'absent', reason: absentReason('redis') };
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return { kind: 'up', url };
  } catch (err) {
    return { kind: 'down', url, error: (err as Error).message };
  } finally {
    client.disconnect();
  }
}

/**
 * `describe` for a suite that needs a service: runs when it is up, skips when it is neither
 * configured nor startable here (saying why),
 * and when it is configured but down, fails under CI=true (and skips with a reason elsewhere).
 */
export function describeWithService(name: string, state: ServiceState, body: (url: string) => void): void {
  if (state.kind === 'up') {
    describe(name, () => body(state.url));
  } else if (state.kind === 'absent') {
    describe.skip(`${name} (${state.reason})`, () => body(''));
  } else if (IN_CI) {
    describe(name, () => {
      it('reaches the configured service', () => {
        throw new Error(`${name}: ${state.url} is configured but unreachable (${state.error}); CI=true never skips`);
      });
    });
  } else {
    describe.skip(`${name} (configured but unreachable: ${state.error})`, () => body(state.url));
  }
}

/** A `Db` on a schema of its own; `drop()` removes the schema and closes the pool. */
export async function freshPgSchema(url: string): Promise<{ db: Db; schema: string; drop(): Promise<void> }> {
  const schema = `test_${runId()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema "${schema}"`);
  } finally {
    await admin.end();
  }
  const db = createPgDb({ connectionString: url, schema, max: 4 });
  return {
    db,
    schema,
    async drop() {
      await db.close().catch(() => undefined);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Deletes every Redis key under `prefix` (one test run's keys). */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/**
 * A suite's name, with the reason it skips when services it needs are missing here:
 *   describe.skipIf(REDIS_URL === null)(nameNeeding('fleet registry', { redis: REDIS_URL }), …)
 */
export function nameNeeding(name: string, needs: { postgres?: unknown; redis?: unknown }): string {
  const missing = (['postgres', 'redis'] as const).filter((s) => s in needs && (needs[s] === null || needs[s] === undefined || needs[s] === false));
  return missing.length === 0 ? name : `${name} (skipped: ${missing.map(absentReason).join('; ')})`;
}
