/**
 * Vitest globalSetup: real PostgreSQL and Redis for the suites that need them, on a machine where
 * DATABASE_URL / REDIS_URL are not set. Each missing one is started once per run from the machine's
 * binaries (a private `initdb` cluster, a `redis-server` on a free port) and handed to the test
 * workers with `provide`, never as DATABASE_URL / REDIS_URL: suites that do not ask for a real
 * service keep the embedded default (PGlite, the in-process store), as `npm start` runs.
 * Where the binaries are absent, the reason is printed here once and those suites skip, each
 * naming it (helpers/services.ts).
 */
import type { TestProject } from 'vitest/node';
import { postgresBin, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';
import { redisServerBin, startPrivateRedis, type PrivateRedis } from './private-redis.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A private PostgreSQL started for this run (unset: DATABASE_URL is set, or no binaries). */
    privatePostgresUrl: string | null;
    privateRedisUrl: string | null;
    /** Why a service is neither configured nor started here, when it is not. */
    servicesAbsent: { postgres: string | null; redis: string | null };
  }
}

const set = (value: string | undefined): boolean => value !== undefined && value !== '';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let postgres: PrivatePostgres | null = null;
  let redis: PrivateRedis | null = null;
  const absent = { postgres: null as string | null, redis: null as string | null };
  if (!set(process.env.DATABASE_URL)) {
    if (postgresBin() === null) absent.postgres = 'DATABASE_URL is not set and no PostgreSQL binaries are under /usr/lib/postgresql/*/bin';
    else postgres = await startPrivatePostgres();
  }
  if (!set(process.env.REDIS_URL)) {
    if (redisServerBin() === null) absent.redis = 'REDIS_URL is not set and no redis-server is on PATH';
    else redis = await startPrivateRedis();
  }
  const started = [postgres && `PostgreSQL ${postgres.url}`, redis && `Redis ${redis.url}`].filter(Boolean);
  // The run's one word on where the real services come from (stdout of the main process).
  if (started.length > 0) console.log(`test services: started ${started.join(' and ')} for this run`);
  for (const reason of [absent.postgres, absent.redis]) if (reason !== null) console.log(`test services: ${reason}; the suites that need it skip`);
  project.provide('privatePostgresUrl', postgres?.url ?? null);
  project.provide('privateRedisUrl', redis?.url ?? null);
  project.provide('servicesAbsent', absent);
  let stopped: Promise<unknown> | null = null;
  const stop = () => (stopped ??= Promise.all([postgres?.stop(), redis?.stop()]));
  // An interrupted run (Ctrl-C, SIGTERM) skips the teardown, and the server pg_ctl started would
  // outlive it: stop both on the way out, then let the signal do what it would have done.
  const onSignal = (signal: NodeJS.Signals) => {
    void stop().finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return async () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stop();
  };
}
