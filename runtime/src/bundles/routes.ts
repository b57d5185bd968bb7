/**
 * @module bundles/routes
 * `PUT /internal/v1/bundles/{sha256}`: push a bundle to this node (checked against its hash);
 * `PUT /internal/v1/source-maps/{sha256}`: push a bundle's source map the same way.
 */
import { LIMITS } from '@platform/sdk';
import type { Hono } from 'hono';
import { readBody } from '../http/body.ts';
import type { BundleStore, SourceMapStore } from './store.ts';

export function mountBundleRoutes(app: Hono, bundles: BundleStore, sourceMaps: SourceMapStore): void {
  app.put('/internal/v1/bundles/:sha256', async (c) => {
    const sha = c.req.param('sha256');
    const bytes = await readBody(c, LIMITS.manifest.hostedBundleBytes);
    bundles.put(sha, bytes);
    return c.json({ sha256: sha, bytes: bytes.byteLength }, 201);
  });
  app.put('/internal/v1/source-maps/:sha256', async (c) => {
    const sha = c.req.param('sha256');
    const bytes = await readBody(c, LIMITS.hosted.sourceMapBytes);
    sourceMaps.put(sha, bytes);
    return c.json({ sha256: sha, bytes: bytes.byteLength }, 201);
  });
}
