/**
 * @module core/http/health
 * `GET /healthz` (the process answers) and `GET /readyz` (the database answers too). Metrics are
 * on the operator port (core/http/metrics-server.ts), not here.
 */
import type { Hono } from 'hono';
import { PlatformError } from '@platform/sdk';
import type { Db } from '../db/db.ts';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

const READY_TIMEOUT_MS = 2_000;

async function databaseAnswers(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([db.query('select 1').then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: Hono<AppEnv>, deps: { db: Db }): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    if (await databaseAnswers(deps.db)) return c.json({ status: 'ready' });
    c.get('log').warn('readiness check failed: the database does not answer');
    return errorResponse(c, new PlatformError('PlatformApiServiceUnavailableError', 'The database does not answer'));
  });
}
