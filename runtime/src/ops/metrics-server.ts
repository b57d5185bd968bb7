/**
 * @module ops/metrics-server
 * The operator port: `GET /metrics` (Prometheus text format) on its own listener, never on a
 * public port. Used by the runtime node (RUNTIME_METRICS_PORT) and the control plane
 * (METRICS_PORT, through `@platform/runtime/metrics-server`). Metrics name apps, routes, egress
 * hosts and failure rates; a public port is reachable by anyone who can reach the API or a hosted
 * app, the operator port only by what the deployment lets reach it (not exposed by the Kubernetes
 * Services or the compose balancer; scraped by pod address). See docs/decisions/hardening.md.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { PlatformError } from '@platform/sdk';

/** The two log calls it makes (pino's and the control plane's logger both fit). */
interface OpsLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MetricsServer {
  /** Listens; answers the URL `/metrics` is served at. */
  start(): Promise<{ port: number; url: string }>;
  stop(): Promise<void>;
}

/**
 * A listen failure that names the setting behind the port: a bare `EADDRINUSE` says nothing of which
 * of a process's ports (API, ingress, operator) was taken or how to choose another.
 * @example s.once('error', (err) => reject(listenError(err, { variable: 'METRICS_PORT', host, port })));
 */
export function listenError(err: unknown, where: { variable: string; host: string; port: number }): Error {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const at = `${where.host}:${where.port} (${where.variable})`;
  if (code === 'EADDRINUSE') {
    return new Error(`Port ${where.port} is already in use on ${at}: stop what listens there, or set ${where.variable} to a free port (0 picks one)`, { cause: err });
  }
  if (code === 'EACCES') return new Error(`Not allowed to listen on ${at}: choose a port above 1023 with ${where.variable}`, { cause: err });
  return new Error(`Could not listen on ${at}: ${(err as Error).message}`, { cause: err });
}

const notFound = JSON.stringify(new PlatformError('PlatformApiNotFoundError', 'The operator port serves GET /metrics only').toBody());

/**
 * @example
 * const metrics = createMetricsServer({ registry, host: config.metricsHost, port: config.metricsPort, logger, variable: 'METRICS_PORT' });
 * const { url } = await metrics.start(); // http://127.0.0.1:9464/metrics
 */
export function createMetricsServer(deps: { registry: Registry; host: string; port: number; logger: OpsLogger; variable: string }): MetricsServer {
  let server: Server | undefined;
  return {
    async start() {
      const s = createServer((req, res) => {
        if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
          res.writeHead(404, { 'content-type': 'application/json' }).end(notFound);
          return;
        }
        deps.registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': deps.registry.contentType }).end(text),
          (err: unknown) => {
            deps.logger.error({ err }, 'metrics collection failed');
            res.writeHead(500).end();
          },
        );
      });
      server = s;
      await new Promise<void>((resolve, reject) => {
        s.once('error', (err) => reject(listenError(err, { variable: deps.variable, host: deps.host, port: deps.port })));
        s.listen(deps.port, deps.host, () => resolve());
      });
      const info = s.address() as AddressInfo;
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      const shown = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
      deps.logger.info({ port: info.port, host: info.address }, 'metrics listening');
      return { port: info.port, url: `http://${shown}:${info.port}/metrics` };
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s === undefined) return;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    },
  };
}
