/**
 * @module manifests/routes
 * `POST /internal/v1/manifest`: evaluate a bundle in a fresh isolate, under a CPU budget, and
 * answer the manifest its code computes. The body is `{ sha256 }` (a bundle already on the node or
 * fetchable from the control plane) or the bundle itself (`content-type: application/javascript`),
 * which is then kept like a pushed bundle.
 */
import { LIMITS, PlatformError } from '@platform/sdk';
import type { Hono } from 'hono';
import type { BundleStore } from '../bundles/store.ts';
import { sha256Hex } from '../bundles/store.ts';
import { ManifestRequestSchema } from '../deliveries/schemas.ts';
import { readBody, readJson } from '../http/body.ts';
import type { RunService } from '../runs/service.ts';

export function mountManifestRoutes(app: Hono, deps: { bundles: BundleStore; runs: RunService; cpuMs: number }): void {
  app.post('/internal/v1/manifest', async (c) => {
    const type = c.req.header('content-type') ?? '';
    let sha: string;
    if (/^(application|text)\/javascript\b/.test(type)) {
      const bytes = await readBody(c, LIMITS.manifest.hostedBundleBytes);
      sha = sha256Hex(bytes);
      deps.bundles.put(sha, bytes);
    } else {
      sha = ManifestRequestSchema.parse(await readJson(c, 4096)).sha256;
    }
    const id = deps.runs.nextRequestId();
    const result = await deps.runs.manifest(sha, deps.cpuMs, id);
    const logs = result.report.logs.map((l) => ({ level: l.level, message: l.message }));
    if ('error' in result) throw new PlatformError(result.error.tag, result.error.message, { fields: { ...result.error.fields, logs } });
    return c.json({ sha256: sha, manifest: result.manifest, cpuMs: result.report.cpuMs, logs }, 200, { 'x-request-id': id });
  });
}
