/**
 * @module node
 * Wires one runtime node: bundle store, app directory, egress, supervisor and its workers, the
 * HTTP surface. Holds no logic of its own.
 */
import type { Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import type { Logger } from 'pino';
import { createBundleStore, createSourceMapStore } from './bundles/store.ts';
import type { RuntimeConfig } from './config/config.ts';
import { createDeliveryRoute } from './deliveries/routes.ts';
import { createDeliveryService } from './deliveries/service.ts';
import type { Lookup } from './egress/connector.ts';
import { createEgress } from './egress/service.ts';
import { createSecretCheck } from './http/auth.ts';
import { createHttpServer } from './server.ts';
import { createMemoryAppDirectory, type AppDirectory } from './ingress/directory.ts';
import { createHttpAppDirectory } from './ingress/http-directory.ts';
import { createIngress, type Ingress } from './ingress/routes.ts';
import { createHandoffListener } from './http/handoff-listener.ts';
import { hostname } from 'node:os';
import { createAppLog, type AppLog, type AppLogInput } from './logs/app-log.ts';
import { createLogShipper, type LogShipper } from './logs/shipper.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { createRunService, type RunService } from './runs/service.ts';
import { buildGuestSource } from './sandbox/guest-source.ts';
import { createSupervisor, type Supervisor } from './supervisor/supervisor.ts';
import { workerEntry } from './supervisor/worker-entry.ts';
import { createMetricsServer, listenError } from './ops/metrics-server.ts';
import { assertSafeToolchain } from './sandbox/preflight.ts';
import type { IsolatedVmBuild, SandboxKind } from './config/ivm-build.ts';
import { openRegistration } from './fleet/open.ts';
import { openMetering } from './usage/open.ts';
import type { Registration } from './fleet/registration.ts';
// Not the telemetry index: its SDK and exporters are made by whoever starts the node (main.ts), so
// `platform dev`'s bundle of the node (scripts/cli-runtime.mjs) carries only the API-level wrappers.
import { emitAppLines } from './telemetry/log-records.ts';
import type { Telemetry } from './telemetry/sdk.ts';
import { createRunSpans, traceEgress, traceRuns } from './telemetry/tracing.ts';

export interface RuntimeNodeDeps {
  config: RuntimeConfig;
  logger: Logger;
  now?: () => number;
  /** Where ingress resolves slugs; default: the control plane (CONTROL_PLANE_URL), else none. */
  directory?: AppDirectory;
  /** DNS for guest egress (tests); default: the system resolver. */
  lookup?: Lookup;
  /** fetch for calls to the control plane (tests); default: global fetch. */
  fetch?: typeof fetch;
  /** `development`: `platform dev`'s sandbox, which may run on the stock isolated-vm (default: `production`). */
  sandbox?: SandboxKind;
  /** OpenTelemetry export, made and shut down by the node's starter (main.ts, from config.telemetry); default: off. */
  telemetry?: Telemetry | null;
}

export interface RuntimeNode {
  /** Listens; answers where ingress and the internal API are served, and the operator port's `/metrics`. */
  start(): Promise<{ url: string; metricsUrl: string }>;
  /**
   * Takes no new deliveries (they are refused with a 503 the control plane retries on another node),
   * fails readiness, marks the node draining in the fleet registry, and resolves once nothing is in
   * flight or `graceMs` has passed. Hosted ingress is still served: a load balancer may send a few
   * requests before it sees the failed readiness.
   */
  drain(graceMs: number): Promise<{ inFlight: number }>;
  stop(): Promise<void>;
  readonly metrics: Metrics;
  readonly appLog: AppLog;
  /** The OTLP export, or null when it is off. */
  readonly telemetry: Telemetry | null;
  /** The supervisor, once started (load and worker pids, for operators and tests). */
  readonly supervisor: Supervisor | null;
  /** The isolated-vm its workers run: `stock` only in the development sandbox without the patched build. */
  readonly isolatedVm: IsolatedVmBuild;
  /** Ships the usage counts held now (tests; the shipper also runs every second). */
  flushUsage(): Promise<void>;
}

/** Binds the node's server; resolves with the port bound (port 0: the one the system chose). */
function listen(http: NetServer, host: string, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const refused = (err: Error) => reject(listenError(err, { variable: 'RUNTIME_PORT', host, port }));
    http.once('error', refused);
    http.listen(port, host, () => {
      http.off('error', refused);
      resolve((http.address() as AddressInfo).port);
    });
  });
}

/** App log lines stay readable on the node and, with a control plane, are shipped to it. */
function logShipper(config: RuntimeConfig, deps: { now: () => number; logger: Logger; metrics: Metrics; fetch: typeof fetch | undefined }): LogShipper | null {
  if (config.controlPlaneUrl === null) return null;
  return createLogShipper({
    url: config.controlPlaneUrl, secret: config.secret, nodeId: config.fleet?.nodeId ?? `${hostname()}-${process.pid}`,
    ...config.logShipping, now: deps.now, logger: deps.logger, ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
    dropped: (reason, n) => deps.metrics.appLogDropped.inc({ reason }, n),
  });
}

/** The listening socket that hands hosted-ingress connections to the workers (RUNTIME_HANDOFF). */
function handoffListener(http: Server, ingress: Ingress, sup: Supervisor): NetServer {
  return createHandoffListener({
    http,
    isIngress: (target, host) => ingress.slugOfHost(host) !== null || ingress.isPath(target),
    handOff: (socket, head) => sup.handOff(socket, head),
  });
}

/** Workers serve handed connections: apps and passed requests are answered here (supervisor/handoff.ts). */
function enableHandoff(deps: { config: RuntimeConfig; sup: Supervisor; runs: RunService; directory: AppDirectory; publicUrl: string }): void {
  const { config, runs, directory } = deps;
  deps.sup.enableHandoff({
    async lookup(slug) {
      const app = directory.cached?.(slug) ?? await directory.resolve(slug);
      if (app === null) return null;
      const derived = await runs.prepare({ app: { id: app.appId, slug: app.slug, version: app.version }, sha256: app.sha256, sourceMapSha256: app.sourceMapSha256 ?? null, env: app.env, secretEnvKeys: app.secretEnvKeys, egressHosts: app.egressHosts, baseUrl: app.baseUrl, source: app });
      return { app, spec: derived.spec, egress: { egressHosts: derived.egressHosts, platformOrigin: derived.platformOrigin } };
    },
    pass: (input, requestId) => runs.run(input, requestId),
  }, {
    publicUrl: deps.publicUrl, hostedAppDomain: config.hostedAppDomain, maxBodyBytes: config.ingressMaxBodyBytes, directoryTtlMs: config.directoryTtlMs, idPrefix: runs.idPrefix,
    budgets: { route: runs.budgets('route'), mcp: runs.budgets('mcp') },
  });
}

/** Where the supervisor's app log lines go: the node's memory, the shipper, and the OTLP export when on. */
function appLogSink(appLog: AppLog, shipper: LogShipper | null, telemetry: Telemetry | null, spanOf: Parameters<typeof emitAppLines>[2]): (lines: AppLogInput[]) => void {
  return (lines) => {
    if (telemetry !== null) emitAppLines(telemetry, lines, spanOf);
    // Profiles are shipped, not kept in the node's memory.
    appLog.append(lines.some((l) => l.profile !== undefined) ? lines.map(({ profile: _profile, ...line }) => line) : lines);
    shipper?.append(lines);
  };
}


/** The guest's outbound calls: the policy's egress, each call in a span when export is on. */
function nodeEgress(config: RuntimeConfig, deps: { metrics: Metrics; now: () => number; lookup: Lookup | undefined; telemetry: Telemetry | null; logger: Logger }) {
  const { egress: e } = config;
  const plain = createEgress({ metrics: deps.metrics, timeoutMs: e.timeoutMs, maxResponseBytes: e.maxResponseBytes, testLoopbackHosts: e.testLoopbackHosts, now: deps.now, lookup: deps.lookup });
  if (e.testLoopbackHosts.length > 0) deps.logger.warn({ hosts: e.testLoopbackHosts }, 'TEST ONLY: these egress host names resolve to loopback and may use http');
  return deps.telemetry === null ? plain : traceEgress(plain, deps.telemetry);
}

export function createRuntimeNode(deps: RuntimeNodeDeps): RuntimeNode {
  // A runtime node refuses to start without the patched isolated-vm; the development sandbox of
  // `platform dev` runs on the stock binary then (approximate CPU budgets, config/ivm-build.ts).
  const isolatedVm = assertSafeToolchain(deps.sandbox ?? 'production');
  const config: RuntimeConfig = { ...deps.config, worker: { ...deps.config.worker, isolatedVm } };
  const { logger } = deps;
  const now = deps.now ?? Date.now;
  const metrics = createMetrics();
  const telemetry = deps.telemetry ?? null;
  telemetry?.bridge(metrics.registry);
  const runSpans = createRunSpans();
  const appLog = createAppLog({ linesPerApp: config.appLogLines });
  const shipper = logShipper(config, { now, logger, metrics, fetch: deps.fetch });
  const metering = openMetering(config, { now, logger, metrics, fetch: deps.fetch });
  const logSink = appLogSink(appLog, shipper, telemetry, (id) => runSpans.get(id));
  const storeDeps = { dataDir: config.dataDir, memoryBytes: config.bundleMemoryBytes, controlPlaneUrl: config.controlPlaneUrl, secret: config.secret, fetch: deps.fetch };
  const bundles = createBundleStore(storeDeps);
  const sourceMaps = createSourceMapStore(storeDeps);
  const directory = deps.directory ?? (config.controlPlaneUrl === null
    ? createMemoryAppDirectory()
    : createHttpAppDirectory({ controlPlaneUrl: config.controlPlaneUrl, secret: config.secret, ttlMs: config.directoryTtlMs, now, fetch: deps.fetch }));
  const egress = nodeEgress(config, { metrics, now, lookup: deps.lookup, telemetry, logger });

  let supervisor: Supervisor | null = null;
  let server: Server | null = null;
  let listener: NetServer | null = null;
  const operator = createMetricsServer({ registry: metrics.registry, host: config.metrics.host, port: config.metrics.port, logger, variable: 'RUNTIME_METRICS_PORT' });
  let registration: Registration | null = null;
  let draining = false;
  const inFlight = (): number => supervisor?.load().reduce((n, w) => n + w.inFlight, 0) ?? 0;

  return {
    metrics,
    appLog,
    telemetry,
    get supervisor() { return supervisor; },
    isolatedVm,
    flushUsage: async () => { await metering?.shipper.flush(); },
    async start() {
      // Two esbuild builds at start: side by side, not one after the other.
      const [entry, guestSource] = await Promise.all([workerEntry(config.dataDir), buildGuestSource()]);
      if (entry.problem !== null) logger.warn({ problem: entry.problem }, 'sandbox workers start from the TypeScript sources (slower): their bundle could not be built');
      const sup = createSupervisor({ config, logger, metrics, logSink, egress, guestSource, workerEntry: entry.path, now, usage: metering?.meter ?? null });
      supervisor = sup;
      await sup.start();
      for (const s of [shipper, metering?.shipper]) s?.start();
      let publicUrl = config.publicUrl;
      const runs = createRunService({ config, supervisor: telemetry === null ? sup : traceRuns(sup, telemetry, runSpans), bundles, sourceMaps, now, logger });
      const appOrigin = (slug: string): string => (config.hostedAppDomain === null ? publicUrl : `https://${slug}.${config.hostedAppDomain}`);
      const checkSecret = createSecretCheck(config.secret);
      const ingress = createIngress({ directory, runs, hostedAppDomain: config.hostedAppDomain, maxBodyBytes: config.ingressMaxBodyBytes, appOrigin, logger });
      const http = createHttpServer({
        logger,
        checkSecret,
        metrics,
        appLog,
        supervisor: sup,
        bundles,
        sourceMaps,
        runs,
        ingress,
        deliveries: createDeliveryRoute({ checkSecret, deliveries: createDeliveryService({ runs, appOrigin }), logger }),
        manifestCpuMs: config.worker.startupCpuMs,
        draining: () => draining,
      });
      server = http;
      listener = config.handoff === 'ingress' ? handoffListener(http, ingress, sup) : http;
      const port = await listen(listener, config.host, config.port);
      // Port 0 (tests): the public URL gets the port actually bound.
      if (config.port === 0) publicUrl = publicUrl.replace(/:0$/, `:${port}`);
      if (config.handoff === 'ingress') enableHandoff({ config, sup, runs, directory, publicUrl });
      const internalUrl = config.port === 0 ? config.internalUrl.replace(/:0$/, `:${port}`) : config.internalUrl;
      if (config.fleet !== null) {
        registration = openRegistration({ fleet: config.fleet, url: internalUrl, capacity: config.workers, inFlight, logger, now });
        await registration.start();
        logger.info({ nodeId: config.fleet.nodeId, internalUrl }, 'runtime node joined the fleet');
      }
      const { url: metricsUrl } = await operator.start();
      return { url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`, metricsUrl };
    },
    async drain(graceMs) {
      draining = true;
      await registration?.drain().catch((err: unknown) => logger.warn({ err }, 'could not mark the node draining in the fleet registry'));
      const deadline = now() + graceMs;
      // Polled: in-flight requests end in the workers, and a few milliseconds late is no cost here.
      while (inFlight() > 0 && now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return { inFlight: inFlight() };
    },
    async stop() {
      await registration?.stop().catch((err: unknown) => logger.warn({ err }, 'could not leave the fleet registry; the record expires by itself'));
      registration = null;
      const s = server;
      if (s !== null) {
        const l = listener;
        if (l !== null && l !== s) await new Promise<void>((resolve) => l.close(() => resolve()));
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      await operator.stop();
      await supervisor?.stop();
      // After the workers: the last requests' lines and counts are held by now.
      await Promise.all([shipper?.stop(), metering?.shipper.stop()]);
      await egress.close();
    },
  };
}
