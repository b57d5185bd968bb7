/**
 * @module app
 * The composition root of one control plane: wires the HTTP app from its dependencies and starts
 * and stops its server. It holds no logic; the database, key-value store, clock and logger are
 * passed in and stay owned by the caller (main, or a test).
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import { createSecrets, type Secrets } from './crypto/secrets.ts';
import type { Db } from './db/db.ts';
import type { Kv } from './kv/kv.ts';
import type { Logger } from './log/logger.ts';
import { createClientApi, type ClientApi } from './client-api/api.ts';
import { createClientServices, type ClientServices } from './client-api/services.ts';
import type { AppEnv } from './http/env.ts';
import { notFound, onError } from './http/errors.ts';
import { registerHealthRoutes } from './http/health.ts';
import { createHttpMetrics } from './http/metrics.ts';
import { requestContext } from './http/request-context.ts';

export interface ControlPlaneDeps {
  config: Config;
  logger: Logger;
  db: Db;
  kv: Kv;
  clock: Clock;
  /** A registry to add metrics to (default: a fresh one with the default process metrics). */
  registry?: Registry;
}

export interface ControlPlane {
  app: Hono<AppEnv>;
  services: ClientServices;
  clientApi: ClientApi;
  secrets: Secrets;
  registry: Registry;
  /** Listens on config.port (0 picks a free port) and config.host. */
  start(): Promise<{ port: number; url: string }>;
  /** Stops accepting requests and waits for the ones in flight (at most `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * @example
 * const cp = createControlPlane({ config, logger, db, kv, clock: systemClock });
 * const { url } = await cp.start();
 */
export function createControlPlane(deps: ControlPlaneDeps): ControlPlane {
  const metrics = createHttpMetrics({ clock: deps.clock, ...(deps.registry === undefined ? {} : { registry: deps.registry }) });
  const services = createClientServices({ db: deps.db, clock: deps.clock });
  const clientApi = createClientApi({ config: deps.config, services });
  const app = new Hono<AppEnv>();
  app.use('*', requestContext({ logger: deps.logger, clock: deps.clock }));
  app.use('*', metrics.middleware);
  app.onError(onError);
  app.notFound(notFound);
  app.get('/', (c) => c.json({ service: 'control-plane', clientApi: `${clientApi.basePath}/openapi.json`, health: '/healthz' }));
  registerHealthRoutes(app, { db: deps.db, registry: metrics.registry });
  app.route(clientApi.basePath, clientApi.router);

  let server: ServerType | undefined;
  return {
    app,
    services,
    clientApi,
    secrets: createSecrets({ masterKey: deps.config.masterKey }),
    registry: metrics.registry,
    start() {
      if (server !== undefined) return Promise.reject(new Error('Already started'));
      return new Promise((resolve, reject) => {
        const s = serve({ fetch: app.fetch, port: deps.config.port, hostname: deps.config.host }, (info: AddressInfo) => {
          const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
          deps.logger.info({ port: info.port, host: info.address }, 'control plane listening');
          resolve({ port: info.port, url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${info.port}` });
        });
        s.once('error', reject);
        server = s;
      });
    },
    async stop(graceMs = 5_000) {
      const s = server;
      server = undefined;
      if (s === undefined) return;
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          if ('closeAllConnections' in s) s.closeAllConnections();
        }, graceMs);
        s.close(() => {
          clearTimeout(force);
          resolve();
        });
        // Idle keep-alive connections would otherwise hold close() open until they time out.
        if ('closeIdleConnections' in s) s.closeIdleConnections();
      });
    },
  };
}
