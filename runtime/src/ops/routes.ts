/**
 * @module ops/routes
 * Health, load, metrics and the per-app log. `/healthz` and `/metrics` are public (scraped by the
 * orchestrator); the rest is internal API.
 */
import type { Hono } from 'hono';
import type { AppLog } from '../logs/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Supervisor } from '../supervisor/supervisor.ts';

export function mountPublicOps(app: Hono, deps: { metrics: Metrics }): void {
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/metrics', async (c) => c.text(await deps.metrics.registry.metrics(), 200, { 'content-type': deps.metrics.registry.contentType }));
}

export function mountInternalOps(app: Hono, deps: { supervisor: Supervisor; appLog: AppLog }): void {
  app.get('/internal/v1/health', (c) => {
    const workers = deps.supervisor.load();
    const ready = workers.filter((w) => w.ready).length;
    return c.json({ ok: ready > 0, workers: workers.length, ready }, ready > 0 ? 200 : 503);
  });
  app.get('/internal/v1/load', (c) => {
    const workers = deps.supervisor.load();
    return c.json({ inFlight: workers.reduce((n, w) => n + w.inFlight, 0), workers });
  });
  app.get('/internal/v1/apps/:appId/logs', (c) => {
    const after = Number(c.req.query('after') ?? '0');
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? '200')));
    const entries = deps.appLog.read(c.req.param('appId'), Number.isFinite(after) ? after : 0, Number.isFinite(limit) ? limit : 200);
    return c.json({ entries });
  });
}
