/**
 * @module core/http/metrics
 * prom-client metrics of one control plane: the default process metrics plus an HTTP duration
 * histogram labelled by method, route pattern and status. The route label is the pattern the router
 * matched (`/client/v1/circles/:circleId`), never the raw path, so label sets stay bounded.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../clock/clock.ts';
import type { AppEnv } from './env.ts';

export interface HttpMetrics {
  registry: Registry;
  middleware: MiddlewareHandler<AppEnv>;
}

/** Label of a request that matched no route (404s of unknown paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * @example
 * const metrics = createHttpMetrics({ clock });
 * app.use('*', metrics.middleware);
 */
export function createHttpMetrics(deps: { clock: Clock; registry?: Registry; defaultMetrics?: boolean }): HttpMetrics {
  const registry = deps.registry ?? new Registry();
  if (deps.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const started = deps.clock.now();
    try {
      await next();
    } finally {
      duration.observe(
        { method: c.req.method, route: routeLabel(c), status: String(c.res.status) },
        (deps.clock.now() - started) / 1000,
      );
    }
  };
  return { registry, middleware };
}

function routeLabel(c: Parameters<MiddlewareHandler>[0]): string {
  // The last matched route is the handler; when only wildcard middleware matched, no route did.
  const path = routePath(c, -1);
  return path === '' || path.endsWith('*') ? UNMATCHED_ROUTE : path;
}
