/**
 * @module manifests/routes
 * `POST /internal/v1/manifest`: evaluate a bundle in a fresh isolate, under a CPU budget, and
 * answer the manifest its code computes. The body is `{ sha256, sourceMapSha256? }` (a bundle
 * already on the node or fetchable from the control plane) or the bundle itself (`content-type:
 * application/javascript`, `?sourceMap=` naming its map), which is then kept like a pushed bundle.
 * With a source map, a bundle that fails to load names the line of the author's file that threw.
 */
import { LIMITS, PlatformError } from '@platform/sdk';
import type { Hono } from 'hono';
import type { BundleStore } from '../bundles/store.ts';
import { sha256Hex } from '../bundles/store.ts';
import { ManifestQuerySchema, ManifestRequestSchema } from '../deliveries/schemas.ts';
import { readBody, readJson } from '../http/body.ts';
import type { RunService } from '../runs/service.ts';

export function mountManifestRoutes(app: Hono, deps: { bundles: BundleStore; runs: RunService; cpuMs: number }): void {
  app.post('/internal/v1/manifest', async (c) => {
    const type = c.req.header('content-type') ?? '';
    let sha: string;
    let sourceMap: string | null;
    if (/^(application|text)\/javascript\b/.test(type)) {
      sourceMap = ManifestQuerySchema.parse(c.req.query()).sourceMap ?? null;
      const bytes = await readBody(c, LIMITS.manifest.hostedBundleBytes);
      sha = sha256Hex(bytes);
      deps.bundles.put(sha, bytes);
    } else {
      const body = ManifestRequestSchema.parse(await readJson(c, 4096));
      sha = body.sha256;
      sourceMap = body.sourceMapSha256 ?? null;
    }
    const id = deps.runs.nextRequestId();
    const result = await deps.runs.manifest(sha, deps.cpuMs, id, sourceMap);
    const logs = result.report.logs.map((l) => (l.error === undefined ? { level: l.level, message: l.message } : { level: l.level, message: l.message, error: l.error }));
    if ('error' in result) throw new PlatformError(result.error.tag, result.error.message, { fields: { ...result.error.fields, logs } });
    return c.json({ sha256: sha, manifest: result.manifest, cpuMs: result.report.cpuMs, logs }, 200, { 'x-request-id': id });
  });
}
