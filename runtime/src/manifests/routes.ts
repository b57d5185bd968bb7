/**
 * @module manifests/routes
 * `POST /internal/v1/manifest`: evaluate a bundle in a fresh isolate, under a CPU budget, and
 * answer the manifest its code computes. The body is `{ sha256 }` (a bundle already on the node or
 * fetchable from the control plane) or the bundle itself (`content-type: application/javascript`),
 * which is then kept like a pushed bundle.
 */
import { LIMITS, PlatformError } from '@platform/sandbox-lib';
import type { Hono } from 'hono';
import type { BundleStore } from '../bundles/store.ts';
import { sha256Hex } from '../bundles/store.ts';
import { ManifestRequestSchema } from '../deliveries/schemas.ts';
import { readBody, readJson } from '../http/body.ts';
import type { Supervisor } from '../supervisor/supervisor.ts';

export function mountManifestRoutes(app: Hono, deps: { bundles: BundleStore; supervisor: Supervisor; cpuMs: number; nextId: () => string }): void {
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
    const bundlePath = await deps.bundles.ensure(sha);
    const id = deps.nextId();
    const result = await deps.supervisor.manifest({ id, version: { key: `manifest:${sha}`, sha256: sha, bundlePath }, cpuBudgetMs: deps.cpuMs, deadlineMs: deps.cpuMs * 20 + 5_000 });
    if ('error' in result) {
      const logs = result.report.logs.map((l) => ({ level: l.level, message: l.message }));
      const err = result.error;
      throw new PlatformError(err.tag, err.message, { fields: { ...err.fields, logs } });
    }
    return c.json({ sha256: sha, manifest: result.manifest, cpuMs: result.report.cpuMs, logs: result.report.logs.map((l) => ({ level: l.level, message: l.message })) }, 200, { 'x-request-id': id });
  });
}
