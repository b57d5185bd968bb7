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
import type { Clock } from './core/clock/clock.ts';
import type { Config } from './core/config/config.ts';
import { createSecrets, type Secrets } from './core/crypto/secrets.ts';
import type { Db } from './core/db/db.ts';
import type { Kv } from './core/kv/kv.ts';
import type { Logger } from './core/log/logger.ts';
import type { ClientApi } from './core/http/client-api.ts';
import { createClientApi } from './wiring/client-routes.ts';
import { createClientServices, type ClientServices } from './wiring/workspace.ts';
import type { AppEnv } from './core/http/env.ts';
import { notFound, onError } from './core/http/errors.ts';
import { registerHealthRoutes } from './core/http/health.ts';
import { createHttpMetrics } from './core/http/metrics.ts';
import { requestContext } from './core/http/request-context.ts';
import { createCiIdentitiesService } from './apps/ci-identities/service.ts';
import { createOidcVerifier } from './apps/ci-identities/oidc.ts';
import { createCallerResolver } from './apps/credentials/resolve.ts';
import { retryAfterHeader } from './core/rate-limit/rate-limit.ts';
import { createKeyRing } from './apps/tokens/keyring.ts';
import { registerJwksRoute } from './apps/tokens/well-known-routes.ts';
import { createTokenService, type TokenService } from './apps/tokens/service.ts';
import { createV0Api, type V0Api } from './core/http/v0-api.ts';
import { registerV0Routes } from './wiring/v0-routes.ts';
import { createAppFeatures, type AppFeatureOptions, type AppFeatures } from './wiring/apps.ts';
import { createInternalRouter, INTERNAL_BASE } from './apps/internal/internal-routes.ts';
import { createEventProducer } from './workspace/events/index.ts';
import { createLifecycle, type Lifecycle, type LifecycleOptions } from './wiring/deliveries.ts';
import { registerInvocationClientRoutes } from './blocks/invocations/client-routes.ts';
import { createInvocations } from './wiring/invocations.ts';
import { createBlocksFeature, type BlocksFeature } from './wiring/blocks.ts';
import { registerNotificationClientRoutes } from './messaging/notifications/client-routes.ts';
import { registerMemoryClientRoutes } from './messaging/memories/client-routes.ts';
import { registerSearchClientRoutes } from './messaging/search/client-routes.ts';
import { registerStreamClientRoutes } from './messaging/app-messages/client-routes.ts';
import { registerReferenceClientRoutes } from './messaging/references/client-routes.ts';

export interface ControlPlaneDeps {
  config: Config;
  logger: Logger;
  db: Db;
  kv: Kv;
  clock: Clock;
  /** A registry to add metrics to (default: a fresh one with the default process metrics). */
  registry?: Registry;
  /** Replacements for the apps features' seams (bundle store, manifest reader, DNS resolver). */
  apps?: AppFeatureOptions;
  /** Replacements for the lifecycle features' seams (hosted delivery target, mail transport, jitter). */
  lifecycle?: LifecycleOptions;
}

export interface ControlPlane {
  app: Hono<AppEnv>;
  services: ClientServices;
  clientApi: ClientApi;
  v0Api: V0Api;
  tokens: TokenService;
  apps: AppFeatures;
  /** Lifecycle deliveries: the outbox loops, the relay, the delivery targets, the Deliveries page, mail. */
  lifecycle: Lifecycle;
  /** Blocks: the interactive delivery engine, the blocks API, the member's side, rendering. */
  blocks: BlocksFeature;
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
  // Services record events in their transactions, then wake the delivery loops (created below).
  const events = createEventProducer({ wake: () => lifecycle.wake() });
  const services = createClientServices({ db: deps.db, clock: deps.clock, events });
  const secrets = createSecrets({ masterKey: deps.config.masterKey });
  const ring = createKeyRing({ db: deps.db, clock: deps.clock, secrets, logger: deps.logger, rotationMs: deps.config.tokenKeyRotationMs });
  const tokens = createTokenService({ ring, clock: deps.clock, issuer: deps.config.publicUrl });
  const allowHttpIssuers = deps.config.allowHttpOidcIssuers;
  const ciIdentities = createCiIdentitiesService({
    db: deps.db, clock: deps.clock, tokens, allowHttpIssuers, oidc: createOidcVerifier({ clock: deps.clock, allowHttp: allowHttpIssuers }),
  });
  const apps = createAppFeatures({
    config: deps.config, db: deps.db, clock: deps.clock, secrets, kv: deps.kv, logger: deps.logger, ...(deps.apps === undefined ? {} : { options: deps.apps }),
  });
  const resolver = createCallerResolver({ db: deps.db, tokens, apiKeys: services.apiKeys });
  const lifecycle = createLifecycle({
    config: deps.config, db: deps.db, kv: deps.kv, clock: deps.clock, logger: deps.logger, tokens, registry: metrics.registry,
    signingSecretsFor: apps.signingSecretsFor, installConfigFor: apps.installConfigFor, resolveCaller: (header) => resolver.resolveValue(header),
    environmentFor: (appId, target) => apps.envVars.environmentFor(appId, target),
    ...(deps.lifecycle === undefined ? {} : { options: deps.lifecycle }),
  });
  const blocks = createBlocksFeature({
    db: deps.db, kv: deps.kv, clock: deps.clock, logger: deps.logger, tokens, events, registry: metrics.registry, target: lifecycle.targets.router,
    signingSecretsFor: apps.signingSecretsFor, installConfigFor: apps.installConfigFor, schemaValidators: apps.schemaValidators,
  });
  const clientApi = createClientApi({ config: deps.config, services, credentials: { tokens, ciIdentities }, apps, lifecycle, blocks });
  registerNotificationClientRoutes(clientApi, deps);
  registerMemoryClientRoutes(clientApi, deps);
  registerSearchClientRoutes(clientApi, deps);
  registerReferenceClientRoutes(clientApi, { ...deps, services, engine: blocks.engine });
  registerStreamClientRoutes(clientApi, deps);
  registerInvocationClientRoutes(clientApi, createInvocations({ ...deps, tokens, events, blocks, apps }));
  const v0Api = createV0Api({ resolver });
  registerV0Routes(v0Api, { ...deps, secrets, services, tokens, ciIdentities, apps, blocks, events });
  const app = new Hono<AppEnv>();
  app.use('*', requestContext({ logger: deps.logger, clock: deps.clock }));
  app.use('*', metrics.middleware);
  app.use('*', retryAfterHeader);
  app.onError(onError);
  app.notFound(notFound);
  app.get('/', (c) => c.json({ service: 'control-plane', clientApi: `${clientApi.basePath}/openapi.json`, appApi: `${v0Api.basePath}/openapi.json`, health: '/healthz' }));
  registerHealthRoutes(app, { db: deps.db, registry: metrics.registry });
  app.route(clientApi.basePath, clientApi.router);
  app.route(v0Api.basePath, v0Api.router);
  registerJwksRoute(app, tokens);
  app.route(INTERNAL_BASE, createInternalRouter({ runtimeSecret: deps.config.runtimeSecret, bundles: apps.bundles, production: apps.production }));

  let server: ServerType | undefined;
  return {
    app,
    services,
    clientApi,
    v0Api,
    tokens,
    apps,
    lifecycle,
    blocks,
    secrets,
    registry: metrics.registry,
    async start() {
      if (server !== undefined) throw new Error('Already started');
      const listening = await new Promise<{ port: number; url: string }>((resolve, reject) => {
        const s = serve({ fetch: app.fetch, port: deps.config.port, hostname: deps.config.host }, (info: AddressInfo) => {
          const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
          deps.logger.info({ port: info.port, host: info.address }, 'control plane listening');
          resolve({ port: info.port, url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${info.port}` });
        });
        s.once('error', reject);
        // The development relay's WebSocket (`/v0/apps/{app_id}/relay`); no other path upgrades.
        s.on('upgrade', (req, socket, head) => {
          if (!lifecycle.relay.server.handleUpgrade(req, socket, head)) socket.destroy();
        });
        server = s;
      });
      await lifecycle.start();
      return listening;
    },
    async stop(graceMs = 5_000) {
      const s = server;
      server = undefined;
      if (s === undefined) return;
      await lifecycle.stop();
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
      // Renders started by the last requests finish, and their delivery records are written.
      await blocks.settled();
    },
  };
}
