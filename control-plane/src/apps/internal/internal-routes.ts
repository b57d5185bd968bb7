/**
 * @module apps/internal/internal-routes
 * `/internal/v1`: what runtime nodes fetch from the control plane, behind the shared secret
 * `RUNTIME_SECRET` (`authorization: Bearer …`). Never exposed to apps or members: it answers
 * decrypted environment values.
 *
 * - `GET /internal/v1/bundles/{sha256}`: the bundle's bytes (`application/javascript`).
 * - `GET /internal/v1/source-maps/{sha256}`: a source map uploaded with a bundle (`application/json`).
 * - `GET /internal/v1/apps/{slug}/production`: the version a hosted app runs in production.
 * - `POST /internal/v1/logs`: a node's batch of app log lines (`{ node, lines }`), stored and
 *   published to live streams; 204.
 * - `POST /internal/v1/usage`: a node's usage counts (`{ key, node, rows }`), counted once per key
 *   (apps/usage); 204.
 */
import { Hono, type Context } from 'hono';
import { PlatformError } from '@platform/sdk';
import { secretsEqual } from '../../core/crypto/api-keys.ts';
import { bearerToken, tokenInvalid } from '../../core/http/bearer.ts';
import type { AppEnv } from '../../core/http/env.ts';
import { readJson } from '../../core/http/read-json.ts';
import { INGEST_LIMITS, LogBatchSchema } from '../logs/schemas.ts';
import type { LogsService } from '../logs/service.ts';
import { SHA256_HEX, type BundlesService } from '../bundles/service.ts';
import type { ProductionResolver } from './production.ts';
import { USAGE_INGEST, UsageFlushSchema } from '../usage/schemas.ts';
import type { UsageService } from '../usage/service.ts';

export const INTERNAL_BASE = '/internal/v1';

const notFound = (what: string) => new PlatformError('PlatformApiNotFoundError', what);

/**
 * @example
 * app.route(INTERNAL_BASE, createInternalRouter({ runtimeSecret: config.runtimeSecret, bundles, production, logs }));
 */
export function createInternalRouter(deps: { runtimeSecret: string; bundles: BundlesService; sourceMaps: BundlesService; production: ProductionResolver; logs: LogsService; usage: UsageService }): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.use('*', async (c, next) => {
    if (!secretsEqual(bearerToken(c), deps.runtimeSecret)) throw tokenInvalid();
    await next();
  });

  const serve = (store: BundlesService, what: string, type: string) => async (c: Context<AppEnv>) => {
    const sha256 = c.req.param('sha256') ?? '';
    if (!SHA256_HEX.test(sha256)) throw notFound(`No ${what} with that hash`);
    const bytes = await store.get(sha256);
    if (bytes === null) throw notFound(`No ${what} with that hash`);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': type,
      // Content-addressed: the bytes behind a hash never change.
      'cache-control': 'private, max-age=31536000, immutable',
      etag: `"${sha256}"`,
    });
  };
  router.get('/bundles/:sha256', serve(deps.bundles, 'bundle', 'application/javascript'));
  router.get('/source-maps/:sha256', serve(deps.sourceMaps, 'source map', 'application/json'));

  router.get('/apps/:slug/production', async (c) => {
    const found = await deps.production.resolve(c.req.param('slug'));
    if (found === null) throw notFound('No hosted app with that slug has a production version');
    return c.json(found);
  });

  router.post('/logs', async (c) => {
    const batch = await readJson(c, LogBatchSchema, { maxBytes: INGEST_LIMITS.batchBytes, maxDepth: 8, keepIllFormedStrings: true });
    await deps.logs.ingest(batch.node, batch.lines);
    return c.body(null, 204);
  });

  router.post('/usage', async (c) => {
    await deps.usage.ingest(await readJson(c, UsageFlushSchema, { maxBytes: USAGE_INGEST.flushBytes, maxDepth: 4 }));
    return c.body(null, 204);
  });
  return router;
}
