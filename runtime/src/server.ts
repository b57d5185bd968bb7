/**
 * @module server
 * The node's HTTP surface. The hot paths (deliveries and hosted ingress) are served straight on
 * node:http; everything else (manifests, bundles, health, metrics, logs) is a Hono app behind them.
 */
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { BundleStore, SourceMapStore } from './bundles/store.ts';
import { mountBundleRoutes } from './bundles/routes.ts';
import { DELIVERIES_PATH } from './deliveries/routes.ts';
import type { Ingress } from './ingress/routes.ts';
import type { AppLog } from './logs/app-log.ts';
import { mountManifestRoutes } from './manifests/routes.ts';
import type { Metrics } from './metrics/metrics.ts';
import { mountInternalOps, mountPublicOps } from './ops/routes.ts';
import type { RunService } from './runs/service.ts';
import type { Supervisor } from './supervisor/supervisor.ts';
import { requireSecret } from './http/auth.ts';
import { onClientError } from './http/client-errors.ts';
import { errorResponse } from './http/errors.ts';

export interface HttpDeps {
  logger: Logger;
  checkSecret: (header: string | undefined) => void;
  metrics: Metrics;
  appLog: AppLog;
  supervisor: Supervisor;
  bundles: BundleStore;
  sourceMaps: SourceMapStore;
  runs: RunService;
  ingress: Ingress;
  deliveries: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>;
  manifestCpuMs: number;
  /** The node is draining: deliveries are refused (the control plane retries them elsewhere), readiness fails. */
  draining: () => boolean;
}

/** The Hono app of the routes off the hot path. */
export function createColdRoutes(deps: HttpDeps): Hono {
  const app = new Hono();
  app.onError((err, c) => errorResponse(err, c, deps.logger));
  app.notFound((c) => c.json({ _tag: 'PlatformApiNotFoundError', message: 'Not found', path: [] }, 404));
  mountPublicOps(app, deps);
  app.use('/internal/*', requireSecret(deps.checkSecret));
  mountManifestRoutes(app, { bundles: deps.bundles, runs: deps.runs, cpuMs: deps.manifestCpuMs });
  mountBundleRoutes(app, deps.bundles, deps.sourceMaps);
  mountInternalOps(app, deps);
  return app;
}

export function createHttpServer(deps: HttpDeps): Server {
  const cold = getRequestListener(createColdRoutes(deps).fetch);
  const server = createServer((req, res) => {
    const slug = deps.ingress.slugOfHost(req.headers.host);
    if (slug !== null) return void deps.ingress.serveHost(req, res, slug);
    const url = req.url ?? '/';
    if (deps.ingress.isPath(url)) return void deps.ingress.servePath(req, res);
    if (req.method === 'POST' && url === DELIVERIES_PATH) {
      if (deps.draining()) return refuseDraining(res);
      return void deps.deliveries(req, res);
    }
    void cold(req, res);
  });
  onClientError(server, deps.logger);
  return server;
}

/**
 * A delivery that reaches a draining node is refused before it is read: no guest ran, so the control
 * plane may send it to another node. The connection is closed so that the caller's pool lets go.
 */
function refuseDraining(res: import('node:http').ServerResponse): void {
  const body = JSON.stringify({ _tag: 'PlatformApiServiceUnavailableError', message: 'This runtime node is draining; send the delivery to another node', path: [] });
  res.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close', 'platform-runtime-refused': 'draining' });
  res.end(body);
}
