/**
 * @module wiring/deliveries
 * Wires the deliveries area once (the delivery targets and the development relay, the interactive
 * engine with its recorder and metrics, the waker, the lifecycle delivery loops, install health and
 * the owner mail, retention, the Deliveries page) and hands out what others use: `wake` (services,
 * after committing events), `interactive` (blocks and references deliver through it), `relay` (its
 * WebSocket endpoint). Holds no logic of its own.
 */
import type { ControlPlaneTelemetry } from '../core/telemetry/telemetry.ts';
import type { Registry } from 'prom-client';
import type { Caller } from '../core/auth/caller.ts';
import type { Clock } from '../core/clock/clock.ts';
import type { Config } from '../core/config/config.ts';
import type { Secrets } from '../core/crypto/secrets.ts';
import type { Db } from '../core/db/db.ts';
import type { Kv } from '../core/kv/kv.ts';
import type { Logger } from '../core/log/logger.ts';
import type { RuntimeNodes } from '../core/runtime-node/nodes.ts';
import type { TokenService } from '../apps/tokens/service.ts';
import { createDeliveriesService, type DeliveriesService } from '../deliveries/page/service.ts';
import { createRuntimeTarget } from '../deliveries/targets/runtime.ts';
import { createDeliveryPipeline } from '../deliveries/pipeline/pipeline.ts';
import { createAppLabel } from '../deliveries/pipeline/app-label.ts';
import { createDeliveryRouter, createEndpointTarget, type DeliveryTarget } from '../deliveries/targets/target.ts';
import { createInteractiveEngine, type InteractiveEngine } from '../deliveries/interactive/engine.ts';
import { createReplayService, type ReplayService } from '../deliveries/replay/service.ts';
import { createEngineMetrics } from '../deliveries/interactive/metrics.ts';
import { createDeliveryRecorder, type FailedDeliveriesListener } from '../deliveries/interactive/recorder.ts';
import { createMailService, type MailService } from '../workspace/mail/service.ts';
import { createSmtpTransport, type MailTransport } from '../workspace/mail/transport.ts';
import { createGuardedAgent, createImageFetch, type ImageFetch, type ResolveAll } from '../deliveries/outbound/index.ts';
import { createRelayHub, type RelayHub } from '../deliveries/relay/hub.ts';
import { createRelayServer, type RelayServer } from '../deliveries/relay/server.ts';
import { createRelayTarget } from '../deliveries/relay/target.ts';
import { createDeliveryHealth } from '../deliveries/outbox/health.ts';
import { createMaintenance } from '../deliveries/outbox/maintenance.ts';
import { createOutboxMetrics } from '../deliveries/outbox/metrics.ts';
import { pruneDeliveries } from '../deliveries/outbox/retention.ts';
import { releaseWaiting, workerChannel } from '../deliveries/outbox/store.ts';
import { createWaker } from '../deliveries/outbox/waker.ts';
import { createOutboxWorker, type OutboxWorker } from '../deliveries/outbox/worker.ts';
import { createScheduleLoop, type ScheduleLoop } from '../deliveries/schedules/loop.ts';
import { createScheduleMetrics } from '../deliveries/schedules/metrics.ts';
import { createQueueService, type QueueService } from '../deliveries/queues/service.ts';
import type { UnitOfWork } from '../core/unit-of-work/unit-of-work.ts';
import { pruneQueueKeys } from '../deliveries/queues/store.ts';
import { countedTarget } from '../apps/usage/deliveries.ts';
import type { UsageRecorder } from '../apps/usage/recorder.ts';
import { createInitiativeService, type InitiativeService } from '../deliveries/initiative/service.ts';
import { registerQueueMetrics } from '../deliveries/initiative/metrics.ts';

/** Seams a test or another deployment may replace. */
export interface DeliveriesOptions {
  /** Hosted apps' deliveries; default: the runtime nodes (RUNTIME_URL, or the fleet). */
  hostedTarget?: DeliveryTarget;
  /** Replaces the SMTP transport built from SMTP_URL. */
  mailTransport?: MailTransport | null;
  /** Randomness of the retry jitter. */
  random?: () => number;
  /** Resolves self-hosted endpoints' names (default: the system's `dns.lookup`); the guard judges what it answers. */
  resolve?: ResolveAll;
}

export interface DeliveriesArea {
  /** Nudges this process's delivery loops (call after committing events). */
  wake(): void;
  /** Interactive deliveries: the engine, and `flush()` writes the delivery records it queued. */
  interactive: { engine: InteractiveEngine; flush(): Promise<void> };
  worker: OutboxWorker;
  /** Schedules: firings written to the outbox (runs where the delivery loops run). */
  schedules: ScheduleLoop;
  /** `POST /v0/queue/messages`: messages an install sends its own queue. */
  queues: QueueService;
  /** Tooling over schedules and queues (CLI, console). */
  initiative: InitiativeService;
  deliveries: DeliveriesService;
  /** `platform replay`: a recorded delivery run again, read-only, against a version. */
  replays: ReplayService;
  mail: MailService;
  relay: { hub: RelayHub; server: RelayServer };
  /** Where deliveries go: endpoint, relay or runtime, by hosting and install kind. */
  targets: { router: DeliveryTarget; relay: DeliveryTarget; endpoint: DeliveryTarget; hosted: DeliveryTarget };
  /** One retention run now (the loops also run it hourly). */
  prune(): Promise<Record<string, number>>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface DeliveriesAreaDeps {
  /** Usage counts (apps/usage): each delivery attempt by result, queue messages sent and delivered. */
  usage?: UsageRecorder;
  /** Every delivery in a span (core/telemetry), when OpenTelemetry export is on. */
  traceDeliveries?: ControlPlaneTelemetry['traceDeliveries'];
  /** Where a block action's queue sends wait for its result (the apps area's unit of work). */
  unitOfWork?: UnitOfWork;
  config: Config;
  db: Db;
  kv: Kv;
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  registry: Registry;
  /** Opens the apps' sealed signing secrets and the installs' sealed config (the delivery pipeline). */
  secrets: Secrets;
  /** An app's environment values for a target, decrypted (env-vars feature), for hosted deliveries. */
  environmentFor(appId: string, target: 'preview' | 'production'): Promise<{ env: Record<string, string>; secretEnvKeys: string[] }>;
  resolveCaller(authorization: string | undefined): Promise<Caller>;
  /** The runtime nodes hosted apps' deliveries go to. */
  runtimeNodes: RuntimeNodes;
  /** Deletes hosted apps' log lines past their retention (apps area), on the same hourly tick as the delivery history. */
  pruneAppLogs?: () => Promise<number>;
  /** Deletes error groups unseen past their retention (apps area), on the same tick. */
  pruneErrorGroups?: () => Promise<number>;
  /** Told of failed delivery attempts, interactive and lifecycle (the apps area's error groups). */
  errors?: FailedDeliveriesListener;
  options?: DeliveriesOptions;
}

/**
 * @example
 * const deliveries = createDeliveriesArea({ config, db, kv, clock, logger, tokens, registry, secrets, environmentFor, resolveCaller });
 * await deliveries.interactive.engine.deliver({ type: 'block.render', target, actor: null, data });
 */
export function createDeliveriesArea(deps: DeliveriesAreaDeps): DeliveriesArea {
  const { config, db, clock, logger } = deps;
  const options = deps.options ?? {};
  const waker = createWaker({ databaseUrl: config.databaseUrl, channel: () => workerChannel(db), logger });
  const transport = options.mailTransport !== undefined ? options.mailTransport
    : config.smtpUrl === null ? null : createSmtpTransport({ url: config.smtpUrl, from: config.mailFrom });
  const mail = createMailService({ db, clock, logger, transport });
  const hub = createRelayHub({ kv: deps.kv, logger });
  const relayServer = createRelayServer({
    db, hub, logger, resolveCaller: deps.resolveCaller,
    async onConnected(installId) {
      await releaseWaiting(db, installId, new Date(clock.now()));
      waker.wake();
    },
  });
  // The guard is on in every mode; development deliveries may reach apps on loopback (nothing else internal).
  const guard = { allowLoopback: config.dev };
  const endpoint = createEndpointTarget({ dispatcher: createGuardedAgent(guard, ...(options.resolve ? [options.resolve] : [])), guard, logger });
  const relay = createRelayTarget(hub);
  const hosted = options.hostedTarget ?? createRuntimeTarget({
    db, baseUrl: config.publicUrl, environmentFor: deps.environmentFor,
    placement: deps.runtimeNodes.placement, client: deps.runtimeNodes.client,
  });
  const routed = createDeliveryRouter({ endpoint, relay, hosted });
  const router = deps.traceDeliveries === undefined ? routed : deps.traceDeliveries(routed);
  const pipeline = createDeliveryPipeline({ clock, tokens: deps.tokens, secrets: deps.secrets, target: countedTarget(router, deps.usage) });
  // One cap on app labels for both kinds of delivery series.
  const appLabel = createAppLabel();
  const health = createDeliveryHealth({ db, clock, logger, mail, publicUrl: config.publicUrl });
  const worker = createOutboxWorker({
    db, clock, logger, pipeline, health, waker,
    metrics: createOutboxMetrics(deps.registry, appLabel),
    settings: { batchSize: config.outbox.batchSize, concurrency: config.outbox.concurrency, leaseMs: config.outbox.leaseMs, pollMs: config.outbox.pollMs },
    ...(options.random ? { random: options.random } : {}),
    ...(deps.errors === undefined ? {} : { errors: deps.errors }),
  });
  const schedules = createScheduleLoop({
    db, clock, logger, wake: waker.wake, metrics: createScheduleMetrics(deps.registry, appLabel),
    settings: { batchSize: config.schedules.batchSize, pollMs: config.schedules.pollMs },
  });
  const queues = createQueueService({
    db, clock, wake: waker.wake, ...(deps.unitOfWork === undefined ? {} : { unitOfWork: deps.unitOfWork }),
    ...(deps.usage === undefined ? {} : { onSent: (installId: string, n: number) => deps.usage!.add(null, installId, { queueSent: n }) }),
  });
  registerQueueMetrics(deps.registry, { db, clock, logger, appLabel });
  const recorder = createDeliveryRecorder({ db, logger, ...(deps.errors === undefined ? {} : { errors: deps.errors }) });
  const engine = createInteractiveEngine({ clock, logger, pipeline, recorder, metrics: createEngineMetrics(deps.registry, appLabel) });
  const prune = async (): Promise<Record<string, number>> => ({
    ...await pruneDeliveries(db, { now: clock.now(), deliveryRetentionMs: config.deliveryRetentionMs, settledRetentionMs: config.settledDeliveryRetentionMs }),
    queueKeys: await pruneQueueKeys(db, new Date(clock.now())),
    ...(deps.pruneAppLogs === undefined ? {} : { appLogs: await deps.pruneAppLogs() }),
    ...(deps.pruneErrorGroups === undefined ? {} : { errorGroups: await deps.pruneErrorGroups() }),
  });
  const maintenance = createMaintenance({ mail, prune, logger });

  return {
    wake: waker.wake,
    interactive: { engine, flush: () => recorder.flush() },
    worker,
    schedules,
    queues,
    initiative: createInitiativeService({ db, clock, queues, wake: waker.wake }),
    deliveries: createDeliveriesService({ db, clock, wake: waker.wake }),
    replays: createReplayService({ db, clock, pipeline, tokens: deps.tokens }),
    mail,
    relay: { hub, server: relayServer },
    targets: { router, relay, endpoint, hosted },
    prune,
    async start() {
      await hub.start();
      if (config.outbox.workers === 0) return;
      await waker.start();
      worker.start(config.outbox.workers);
      schedules.start();
      maintenance.start();
    },
    async stop() {
      await maintenance.stop();
      await schedules.stop();
      await worker.stop();
      await waker.stop();
      await hub.stop();
      relayServer.close();
      transport?.close();
    },
  };
}

/**
 * The download behind every copied image (apps/assets/copy.ts): the delivery guard without the
 * development loopback allowance (an image is never fetched from this machine), plus the test-only
 * loopback names of IMAGE_COPY_TEST_LOOPBACK_HOSTS. Built before the areas, which it is handed to.
 * @example createAppsArea({ …, fetchImage: imageFetchFor(config) })
 */
export function imageFetchFor(config: Config): ImageFetch {
  const guard = { allowLoopback: false, testLoopbackHosts: new Set(config.imageCopy.testLoopbackHosts) };
  return createImageFetch({ dispatcher: createGuardedAgent(guard), guard });
}
