/**
 * @module ops/routes
 * Health, readiness, load, metrics and the per-app log. `/healthz` and `/readyz` are public (probed
 * by the orchestrator) and answer like the control plane's: `/healthz` `{ status: 'ok' }` while the
 * process serves, `/readyz` `{ status: 'ready' }` once a sandbox worker is ready and while the node
 * is not draining (else the tagged 503). `/metrics` is not here: it names apps and egress hosts, so
 * it is served on the operator port (ops/metrics-server.ts) and, for control planes (the operator
 * page), at `/internal/v1/metrics` behind the node secret. The rest is internal API.
 */
import { PlatformError } from '@platform/sdk';
import type { Hono } from 'hono';
import type { AppLog } from '../logs/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Supervisor } from '../supervisor/supervisor.ts';

export function mountPublicOps(app: Hono, deps: { supervisor: Supervisor; draining: () => boolean }): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', (c) => {
    if (deps.draining()) throw new PlatformError('PlatformApiServiceUnavailableError', 'This runtime node is draining');
    if (deps.supervisor.load().some((w) => w.ready)) return c.json({ status: 'ready' });
    throw new PlatformError('PlatformApiServiceUnavailableError', 'No sandbox worker is ready');
  });
}

export function mountInternalOps(app: Hono, deps: { metrics: Metrics; supervisor: Supervisor; appLog: AppLog }): void {
  app.get('/internal/v1/metrics', async (c) => c.text(await deps.metrics.registry.metrics(), 200, { 'content-type': deps.metrics.registry.contentType }));
  app.get('/internal/v1/health', (c) => {
    const workers = deps.supervisor.load();
    const ready = workers.filter((w) => w.ready).length;
    return c.json({ ok: ready > 0, workers: workers.length, ready }, ready > 0 ? 200 : 503);
  });
  app.get('/internal/v1/load', (c) => {
    const workers = deps.supervisor.load();
    return c.json({ inFlight: workers.reduce((n, w) => n + w.inFlight, 0), ...deps.supervisor.status(), workers });
  });
  app.get('/internal/v1/apps/:appId/logs', (c) => {
    const after = Number(c.req.query('after') ?? '0');
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? '200')));
    const entries = deps.appLog.read(c.req.param('appId'), Number.isFinite(after) ? after : 0, Number.isFinite(limit) ? limit : 200);
    return c.json({ entries });
  });
}
