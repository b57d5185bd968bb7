/**
 * @module app
 * The composition root of one control plane: wires the HTTP app from its dependencies and starts
 * and stops its server. It holds no logic; the database, key-value store, clock and logger are
 * passed in and stay owned by the caller (main, or a test).
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Clock } from './core/clock/clock.ts';
import { logFormatOf, type Config } from './core/config/config.ts';
import { operatorAuthScheme } from './core/http/operator-auth.ts';
import { createSecrets, type Secrets } from './core/crypto/secrets.ts';
import type { Db } from './core/db/db.ts';
import type { Kv } from './core/kv/kv.ts';
import { createInvalidation, type Invalidation } from './core/invalidation/invalidation.ts';
import type { Logger } from './core/log/logger.ts';
import { createClientApi, type ClientApi } from './core/http/client-api.ts';
import type { AppEnv } from './core/http/env.ts';
import { notFound, onError } from './core/http/errors.ts';
import { registerHealthRoutes } from './core/http/health.ts';
import { createMetricsServer, listenError } from '@platform/runtime/metrics-server';
import { createHttpMetrics } from './core/http/metrics.ts';
import { requestContext } from './core/http/request-context.ts';
import { onClientError, uriLimit } from './core/http/transport-limits.ts';
import { createV0Api, type V0Api } from './core/http/v0-api.ts';
import { retryAfterHeader } from './core/rate-limit/rate-limit.ts';
import { createInternalRouter, INTERNAL_BASE } from './apps/internal/internal-routes.ts';
import { registerTokenWellKnownRoutes } from './apps/tokens/well-known-routes.ts';
import type { TokenService } from './apps/tokens/service.ts';
import { memberAuthScheme } from './workspace/api-keys/auth.ts';
import { createEventProducer } from './workspace/events/index.ts';
import { createAppsArea, type AppsArea, type AppsOptions } from './wiring/apps.ts';
import { createBlocksArea, removeCarriedBlocks, type BlocksArea } from './wiring/blocks.ts';
import { registerClientRoutes } from './wiring/client-routes.ts';
import { createDeliveriesArea, imageFetchFor, type DeliveriesArea, type DeliveriesOptions } from './wiring/deliveries.ts';
import { createMessagingArea, type MessagingArea } from './wiring/messaging.ts';
import { createLogDrainsArea, type LogDrainsArea, type LogDrainsDeps } from './wiring/log-drains.ts';
import { registerV0Routes } from './wiring/v0-routes.ts';
import { createWorkspaceArea, type WorkspaceArea } from './wiring/workspace.ts';
import { openRuntimeNodes, type RuntimeNodes } from './core/runtime-node/nodes.ts';
import { createRuntimeFetch } from './deliveries/targets/runtime-fetch.ts';
import { registerAssetPublicRoutes } from './apps/assets/public-routes.ts';
import { CONSOLE_BASE, createConsole } from './console/routes.ts';
import { createRolloutEvaluator, type RolloutEvaluator } from './apps/rollouts/evaluator.ts';
import { createAbortNotifier } from './apps/rollouts/notify.ts';
import type { ControlPlaneTelemetry } from './core/telemetry/telemetry.ts';

// A version failing every request is aborted at the first evaluation after its 20th failure, so
// within this interval of it (docs/decisions/rollouts.md, "The bound").
const ROLLOUT_EVALUATE_INTERVAL_MS = 15_000;

export interface ControlPlaneDeps {
  config: Config;
  logger: Logger;
  db: Db;
  kv: Kv;
  clock: Clock;
  /** A registry to add metrics to (default: a fresh one with the default process metrics). */
  registry?: Registry;
  /** Replacements for the apps area's seams (manifest reader, DNS resolver). */
  apps?: AppsOptions;
  /** Replacements for the deliveries area's seams (hosted delivery target, mail transport, jitter). */
  deliveries?: DeliveriesOptions;
  /** The runtime nodes (default: from config, the node at RUNTIME_URL or the fleet registry). */
  runtimeNodes?: RuntimeNodes;
  /** Log drains' settings (default: DRAIN_LIMITS). */
  logDrains?: Pick<LogDrainsDeps, 'settings'>;
  /** Where `npm start` writes the demo's API keys; the console's sign-in page names it. */
  credentialsFile?: string;
  /** OpenTelemetry export (core/telemetry); null or absent: off, and nothing of it is wired in. */
  telemetry?: ControlPlaneTelemetry | null;
}

export interface ControlPlane {
  app: Hono<AppEnv>;
  /** The workspace area: workspaces, members and their API keys, circles, conversations, messages. */
  workspace: WorkspaceArea;
  clientApi: ClientApi;
  v0Api: V0Api;
  tokens: TokenService;
  apps: AppsArea;
  /** The deliveries area: the outbox loops, the relay, the delivery targets, the interactive engine, the Deliveries page, mail. */
  deliveries: DeliveriesArea;
  messaging: MessagingArea;
  /** The blocks area: the blocks API, the member's side, rendering, commands and message actions. */
  blocks: BlocksArea;
  /** Judges running rollouts and aborts a worse version (started and stopped with the control plane). */
  rolloutEvaluator: RolloutEvaluator;
  /** Per-app log drains: the service and the shipper (started with the delivery loops). */
  logDrains: LogDrainsArea;
  secrets: Secrets;
  /** Cache invalidation across replicas (Redis pub/sub, or in process without Redis). */
  invalidation: Invalidation;
  registry: Registry;
  /** Listens on config.port (0 picks a free port) and config.host, and the operator port (`metricsUrl`: `/metrics`). */
  start(): Promise<{ port: number; url: string; metricsUrl: string }>;
  /** Stops accepting requests and waits for the ones in flight (at most `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * @example
 * const cp = createControlPlane({ config, logger, db, kv, clock: systemClock });
 * const { url } = await cp.start();
 */
export function createControlPlane(deps: ControlPlaneDeps): ControlPlane {
  const { config, db, kv, clock, logger } = deps;
  const telemetry = deps.telemetry ?? null;
  const runtimeFetch = telemetry?.tracingFetch(createRuntimeFetch()) ?? createRuntimeFetch();
  const metrics = createHttpMetrics({ clock, ...(deps.registry === undefined ? {} : { registry: deps.registry }) });
  telemetry?.sdk.bridge(metrics.registry);
  // Services record events in their transactions, then wake the delivery loops (created below).
  const events = createEventProducer({ wake: () => deliveries.wake() });
  const invalidation = createInvalidation({ kv, logger });
  const workspace = createWorkspaceArea({ db, clock, events, removeCarried: removeCarriedBlocks(events), invalidation, logger });
  const secrets = createSecrets({ masterKey: config.masterKey });
  const runtimeNodes = deps.runtimeNodes ?? openRuntimeNodes({
    config, logger, clock,
    // The runtime's module is loaded on the first call to a node.
    makeClient: async (url) => (await import('@platform/runtime')).createRuntimeClient({ url, secret: config.runtimeSecret, fetch: runtimeFetch }),
  });
  const apps = createAppsArea({
    config, db, clock, secrets, kv, invalidation, logger, apiKeys: workspace.apiKeys, runtimeNodes, registry: metrics.registry,
    fetchImage: imageFetchFor(config), ...(deps.apps === undefined ? {} : { options: deps.apps }),
    onLinesStored: () => logDrains.shipper.wake(),
  });
  const deliveries = createDeliveriesArea({
    config, db, kv, clock, logger, tokens: apps.tokens, registry: metrics.registry,
    secrets, runtimeNodes, resolveCaller: (header) => apps.resolver.resolveValue(header),
    environmentFor: (appId, target) => apps.envVars.environmentFor(appId, target),
    pruneAppLogs: () => apps.logs.prune(config.appLogRetentionMs),
    pruneErrorGroups: () => apps.errors.prune(config.errorGroupRetentionMs),
    errors: apps.errors,
    unitOfWork: apps.unitOfWork,
    usage: apps.usageRecorder,
    ...(telemetry === null ? {} : { traceDeliveries: telemetry.traceDeliveries }),
    ...(deps.deliveries === undefined ? {} : { options: deps.deliveries }),
  });
  const logDrains = createLogDrainsArea({
    config, db, clock, secrets, logger, mail: deliveries.mail, logs: apps.logs, registry: metrics.registry,
    ...(deps.deliveries?.resolve === undefined ? {} : { resolve: deps.deliveries.resolve }), ...deps.logDrains,
  });
  const messaging = createMessagingArea({
    db, kv, clock, logger, events, publicUrl: config.publicUrl, engine: deliveries.interactive.engine, messages: workspace.messages, images: apps.images,
  });
  const blocks = createBlocksArea({
    db, kv, clock, logger, tokens: apps.tokens, events, interactive: deliveries.interactive, schemaValidators: apps.schemaValidators, links: messaging.links,
    images: apps.images, unitOfWork: apps.unitOfWork,
  });
  const rolloutEvaluator = createRolloutEvaluator({
    db, clock, logger, intervalMs: ROLLOUT_EVALUATE_INTERVAL_MS, metrics: apps.rolloutMetrics,
    notifier: createAbortNotifier({ db, logger, mail: deliveries.mail, logs: apps.logs, publicUrl: config.publicUrl }),
  });
  const clientApi = createClientApi({ member: memberAuthScheme(workspace.apiKeys), operator: operatorAuthScheme(config) });
  registerClientRoutes(clientApi, { workspace, apps, deliveries, messaging, blocks });
  const v0Api = createV0Api({ resolver: apps.resolver });
  registerV0Routes(v0Api, { db, apps, deliveries, messaging, blocks, logDrains: logDrains.service });
  const app = new Hono<AppEnv>();
  if (telemetry !== null) app.use('*', telemetry.middleware);
  app.use('*', requestContext({ logger, clock, accessLevel: logFormatOf(config) === 'pretty' ? 'debug' : 'info' }));
  app.use('*', metrics.middleware);
  app.use('*', uriLimit);
  app.use('*', retryAfterHeader);
  app.onError(onError);
  app.notFound(notFound);
  app.get('/', (c) => c.json({ service: 'control-plane', clientApi: `${clientApi.basePath}/openapi.json`, appApi: `${v0Api.basePath}/openapi.json`, health: '/healthz', console: CONSOLE_BASE }));
  registerHealthRoutes(app, { db });
  const metricsServer = createMetricsServer({ registry: metrics.registry, host: config.metricsHost, port: config.metricsPort, logger, variable: 'METRICS_PORT' });
  app.route(clientApi.basePath, clientApi.router);
  app.route(v0Api.basePath, v0Api.router);
  registerTokenWellKnownRoutes(app, apps.tokens);
  registerAssetPublicRoutes(app, apps.assets);
  // The console calls the two APIs above through this app's own request function.
  app.route(CONSOLE_BASE, createConsole({ request: (path, init) => Promise.resolve(app.request(path, init)), publicUrl: config.publicUrl, credentialsFile: deps.credentialsFile ?? null }));
  app.route(INTERNAL_BASE, createInternalRouter({ runtimeSecret: config.runtimeSecret, bundles: apps.bundles, sourceMaps: apps.sourceMaps, production: apps.production, logs: apps.logs, usage: apps.usage }));

  let server: ServerType | undefined;
  return {
    app,
    workspace,
    clientApi,
    v0Api,
    tokens: apps.tokens,
    apps,
    deliveries,
    messaging,
    blocks,
    rolloutEvaluator,
    logDrains,
    secrets,
    invalidation,
    registry: metrics.registry,
    async start() {
      if (server !== undefined) throw new Error('Already started');
      // Before the first request: a runtime node may ask for a bundle that was on this disk.
      await apps.importDiskBundles();
      const listening = await new Promise<{ port: number; url: string }>((resolve, reject) => {
        const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info: AddressInfo) => {
          const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
          logger.info({ port: info.port, host: info.address }, 'control plane listening');
          resolve({ port: info.port, url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${info.port}` });
        });
        s.once('error', (err) => reject(listenError(err, { variable: 'PORT', host: config.host, port: config.port })));
        onClientError(s as HttpServer, logger);
        // The development relay's WebSocket (`/v0/apps/{app_id}/relay`); no other path upgrades.
        s.on('upgrade', (req, socket, head) => {
          if (!deliveries.relay.server.handleUpgrade(req, socket, head)) socket.destroy();
        });
        server = s;
      });
      let operator: { url: string };
      try {
        operator = await metricsServer.start();
      } catch (err) {
        // The operator port is taken (or refused): the API port is let go too, so nothing half-started stays.
        // (`server` was set inside the listen callback above, which the type checker does not follow.)
        const s = server as ServerType | undefined;
        server = undefined;
        await new Promise<void>((resolve) => (s === undefined ? resolve() : s.close(() => resolve())));
        throw err;
      }
      await runtimeNodes.ready();
      await deliveries.start();
      // Where the delivery loops run (OUTBOX_WORKERS > 0), so do the drains'.
      if (config.outbox.workers > 0) logDrains.shipper.start();
      apps.bundleCollector.start();
      apps.storageSweeper.start();
      apps.usageLoop.start();
      rolloutEvaluator.start();
      return { ...listening, metricsUrl: operator.url };
    },
    async stop(graceMs = 5_000) {
      const s = server;
      server = undefined;
      if (s === undefined) return;
      // Open log streams would hold the server open until the grace ran out.
      apps.logs.closeStreams();
      await metricsServer.stop();
      await apps.bundleCollector.stop();
      await apps.storageSweeper.stop();
      await rolloutEvaluator.stop();
      await logDrains.shipper.stop();
      await deliveries.stop();
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
      // Last: the final deliveries' and storage calls' counts are held by now.
      await apps.usageLoop.stop();
      if (deps.runtimeNodes === undefined) await runtimeNodes.close();
    },
  };
}
