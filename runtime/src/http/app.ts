/**
 * @module http/app
 * The node's one HTTP surface: host-name ingress first (every path of an app's own host belongs to
 * the app), then the public ops routes, the internal API behind the shared secret, and path ingress.
 */
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { mountBundleRoutes } from '../bundles/routes.ts';
import type { BundleStore } from '../bundles/store.ts';
import { mountDeliveryRoutes } from '../deliveries/routes.ts';
import type { createDeliveryService } from '../deliveries/service.ts';
import { mountHostIngress, mountPathIngress, type IngressDeps } from '../ingress/routes.ts';
import type { AppLog } from '../logs/app-log.ts';
import { mountManifestRoutes } from '../manifests/routes.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { mountInternalOps, mountPublicOps } from '../ops/routes.ts';
import type { Supervisor } from '../supervisor/supervisor.ts';
import { requireSecret } from './auth.ts';
import { errorResponse } from './errors.ts';

export interface HttpDeps {
  logger: Logger;
  secret: string;
  metrics: Metrics;
  appLog: AppLog;
  supervisor: Supervisor;
  bundles: BundleStore;
  deliveries: ReturnType<typeof createDeliveryService>;
  ingress: IngressDeps;
  manifestCpuMs: number;
}

export function createHttpApp(deps: HttpDeps): Hono {
  const app = new Hono();
  app.onError((err, c) => errorResponse(err, c, deps.logger));
  app.notFound((c) => c.json({ _tag: 'PlatformApiNotFoundError', message: 'Not found', path: [] }, 404));
  mountHostIngress(app, deps.ingress);
  mountPublicOps(app, deps);
  app.use('/internal/*', requireSecret(deps.secret));
  mountDeliveryRoutes(app, deps.deliveries);
  mountManifestRoutes(app, { bundles: deps.bundles, supervisor: deps.supervisor, cpuMs: deps.manifestCpuMs, nextId: () => deps.ingress.runs.nextRequestId() });
  mountBundleRoutes(app, deps.bundles);
  mountInternalOps(app, deps);
  mountPathIngress(app, deps.ingress);
  return app;
}
