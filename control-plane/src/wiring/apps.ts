/**
 * @module wiring/apps
 * Wires the apps area once (apps, domains, env vars, versions and publishing, dev apps, installs,
 * the internal API's resolver, tokens, CI identities, the credential resolver) and hands out what
 * other areas use: `tokens`, `resolver`, `signingSecretsFor` and `installConfigFor` (deliveries),
 * `schemaValidators` (blocks).
 */
import type { Registry } from 'prom-client';
import { join } from 'node:path';
import type { Clock } from '../core/clock/clock.ts';
import type { Config } from '../core/config/config.ts';
import type { Secrets } from '../core/crypto/secrets.ts';
import type { Db } from '../core/db/db.ts';
import type { Invalidation } from '../core/invalidation/invalidation.ts';
import type { Kv } from '../core/kv/kv.ts';
import type { Logger } from '../core/log/logger.ts';
import { createS3ObjectStore } from '../core/object-store/s3.ts';
import type { RuntimeNodes } from '../core/runtime-node/nodes.ts';
import { createAppsService, type AppsService } from '../apps/apps/service.ts';
import { signingSecretsFor } from '../apps/apps/signing.ts';
import { listApps, type AppRow } from '../apps/apps/store.ts';
import { createBundleCollector, type BundleCollector } from '../apps/bundles/collector.ts';
import { importDiskBundles, type DiskImport } from '../apps/bundles/import-disk.ts';
import { createBundlesService, type BundlesService } from '../apps/bundles/service.ts';
import { createImageCopier, type FetchImage, type ImageCopier } from '../apps/assets/copy.ts';
import { createAssetsService, type AssetService } from '../apps/assets/service.ts';
import { createAssetUploads, type AssetUploads } from '../apps/assets/upload.ts';
import { createCheckBundlesService, type CheckBundlesService } from '../apps/check-bundles/service.ts';
import { createCheckTreesService, type CheckTreesService } from '../apps/check-trees/service.ts';
import { createOidcVerifier } from '../apps/ci-identities/oidc.ts';
import { createCiIdentitiesService, type CiIdentitiesService } from '../apps/ci-identities/service.ts';
import { createCallerResolver, type CallerResolverService } from '../apps/credentials/resolve.ts';
import { createCredentialsService, type CredentialsService } from '../apps/credentials/service.ts';
import { createDevAppsService, type DevAppsService } from '../apps/dev-apps/service.ts';
import { createTxtResolver, type TxtResolver } from '../apps/domains/dns.ts';
import { createDomainsService, type DomainsService } from '../apps/domains/service.ts';
import { createEnvironmentCache } from '../apps/env-vars/cache.ts';
import { createEnvVarsService, type EnvVarsService } from '../apps/env-vars/service.ts';
import { installConfigFor, type InstallConfig } from '../apps/installs/config.ts';
import { createInstallsService, type InstallsService } from '../apps/installs/service.ts';
import type { InstallRow } from '../apps/installs/store.ts';
import { createProductionResolver, type ProductionResolver } from '../apps/internal/production.ts';
import { createLogFeed } from '../apps/logs/feed.ts';
import { createLogsService, type LogsService } from '../apps/logs/service.ts';
import { createErrorsService, type ErrorsService } from '../apps/errors/service.ts';
import { loadFailureLine } from '../apps/errors/load-failures.ts';
import { createOperatorMetricsService, type OperatorMetricsService } from '../apps/operator-metrics/service.ts';
import type { ManifestReader } from '../apps/publish/manifest-reader.ts';
import { createRuntimeManifestReader } from '../apps/publish/manifest-reader-runtime.ts';
import { createVersionHistoryService, type VersionHistoryService } from '../apps/publish/history.ts';
import { createPublishService, type PublishService } from '../apps/publish/service.ts';
import { createRolloutMetrics, type RolloutMetrics } from '../apps/rollouts/metrics.ts';
import { createRolloutsService, type RolloutsService } from '../apps/rollouts/service.ts';
import { createStorageMetrics } from '../apps/storage/metrics.ts';
import { createStorageService, type StorageService } from '../apps/storage/service.ts';
import { createStorageAdmin, type StorageAdmin } from '../apps/storage/admin.ts';
import { createStorageSweeper, type StorageSweeper } from '../apps/storage/sweeper.ts';
import { STAGED_COMMIT, stagedCommitApplier } from '../apps/storage/stage.ts';
import { createUnitOfWork, type UnitOfWork } from '../core/unit-of-work/unit-of-work.ts';
import { STAGED_SEND, stagedSendApplier } from '../deliveries/queues/service.ts';
import { createKeyRing } from '../apps/tokens/keyring.ts';
import { createUsageLoop, type UsageLoop } from '../apps/usage/loop.ts';
import { createUsageRecorder, type UsageRecorder } from '../apps/usage/recorder.ts';
import { createUsageService, type UsageService } from '../apps/usage/service.ts';
import { createTokensService, type TokenService } from '../apps/tokens/service.ts';
import { createSchemaValidatorCache, type VersionValidators } from '../apps/versions/validators.ts';
import type { ApiKeysService } from '../workspace/api-keys/service.ts';

// Retention is counted in days and expiry is hidden from reads at once: a minute between sweeps only
// bounds how long expired rows and abandoned units take room (docs/decisions/storage.md).
const STORAGE_SWEEP_INTERVAL_MS = 60_000;

/** Seams a test or another deployment may replace; each has a default built from config. */
export interface AppsOptions {
  manifestReader?: ManifestReader;
  dns?: TxtResolver;
  /** Suffixes of development app slugs (default: 4 random base32 characters). */
  devSlugSuffix?: () => string;
}

export interface AppsArea {
  apps: AppsService;
  domains: DomainsService;
  envVars: EnvVarsService;
  versions: PublishService;
  /** The version list and rollback. */
  versionHistory: VersionHistoryService;
  /** Gradual rollouts' status, advance, promote and abort (the evaluator is wired in app.ts, beside the mail). */
  rollouts: RolloutsService;
  /** Rollouts' operator metrics (the evaluator sets the gauges). */
  rolloutMetrics: RolloutMetrics;
  devApps: DevAppsService;
  installs: InstallsService;
  production: ProductionResolver;
  bundles: BundlesService;
  /** The source maps uploaded with bundles (served to runtime nodes beside them). */
  sourceMaps: BundlesService;
  /** Collects bundles no version refers to (started and stopped with the control plane). */
  bundleCollector: BundleCollector;
  /** Imports the bundles of DATA_DIR/bundles that are not stored yet (run at start). */
  importDiskBundles(): Promise<DiskImport>;
  tokens: TokenService;
  ciIdentities: CiIdentitiesService;
  /** The one place an `authorization` header becomes a `Caller` (the `/v0` schemes and the relay use it). */
  resolver: CallerResolverService;
  accessTokens: CredentialsService;
  treeChecker: CheckTreesService;
  /** A hosted bundle checked as an upload would, before its app exists (`platform deploy --create`). */
  bundleChecker: CheckBundlesService;
  /** Images stored by content: copies of trees' images, uploaded icons. */
  assets: AssetService;
  /** Copies the images a tree (or a message) names before it is stored. */
  images: ImageCopier;
  /** `POST /v0/assets`: tooling's uploads (app icons). */
  assetUploads: AssetUploads;
  /** Hosted apps' log lines: stored from the nodes' batches, read and streamed by tooling. */
  logs: LogsService;
  errors: ErrorsService;
  /** Each app's figures from the processes' metrics (the console's operator page). */
  operatorMetrics: OperatorMetricsService;
  /** App storage: each install's key-value space (`/v0/storage/…`). */
  storage: StorageService;
  /** What a block action's handler stages, applied with its result (blocks/interactions). */
  unitOfWork: UnitOfWork;
  /** Purges retired spaces, expired entries and abandoned units (started and stopped with the control plane). */
  storageSweeper: StorageSweeper;
  /** Admins' usage per app and purge (`/client/v1/storage`). */
  storageAdmin: StorageAdmin;
  /** Usage over time: the nodes' flushes, and the series tooling, admins and the operator page read. */
  usage: UsageService;
  /** The control plane's own usage counts (deliveries, storage, queues), written in batches. */
  usageRecorder: UsageRecorder;
  /** Samples storage bytes each minute, prunes usage hourly, runs the recorder (started and stopped with the control plane). */
  usageLoop: UsageLoop;
  /** The secrets a delivery to `app` is signed with at `now`, current first (both during a rotation). */
  signingSecretsFor(app: Pick<AppRow, 'id' | 'signing_secret_enc' | 'previous_signing_secret_enc' | 'previous_signing_secret_expires_at'>, now: Date | number): string[];
  /** The install's config decrypted, secret fields included (for the envelope). */
  installConfigFor(install: Pick<InstallRow, 'id' | 'config_enc'>): InstallConfig | undefined;
  /** ajv validators of a version's schemas, compiled once and cached. */
  schemaValidators(appId: string, version: number): Promise<VersionValidators>;
}

export interface AppsAreaDeps {
  config: Config;
  db: Db;
  clock: Clock;
  secrets: Secrets;
  kv: Kv;
  /** Cache invalidation across replicas (environments, signing keys). */
  invalidation: Invalidation;
  logger: Logger;
  /** Member API keys (workspace area), one of the credentials the resolver accepts. */
  apiKeys: ApiKeysService;
  /** The runtime nodes: bundles' manifests are read on one of them; the operator page reads their metrics. */
  runtimeNodes: RuntimeNodes;
  /** This process's metrics (the operator page reads the lifecycle delivery outcomes in it). */
  registry: Registry;
  /** One guarded download of an image URL (the deliveries area's outbound guard, handed in by the root). */
  fetchImage: FetchImage;
  /** Told that log lines were stored (the log drains' shipper wakes). */
  onLinesStored?: () => void;
  options?: AppsOptions;
}

/**
 * @example
 * const apps = createAppsArea({ config, db, clock, secrets, kv, logger, apiKeys: workspace.apiKeys, runtimeNodes, registry });
 * await apps.tokens.mint('install', { installId, appId, workspaceId });
 */
export function createAppsArea(deps: AppsAreaDeps): AppsArea {
  const { config, db, clock, secrets } = deps;
  const options = deps.options ?? {};
  const objects = config.bundleStore.kind === 's3' ? createS3ObjectStore(config.bundleStore.s3) : null;
  const prefix = config.bundleStore.kind === 's3' ? config.bundleStore.s3.prefix : '';
  const bundles = createBundlesService({ db, clock, objects, prefix });
  const sourceMaps = createBundlesService({ db, clock, objects, prefix, table: 'source_maps' });
  const assets = createAssetsService({ db, clock, objects, prefix: config.assetPrefix });
  const images = createImageCopier({ db, clock, assets, fetchImage: deps.fetchImage, reuseMs: config.imageCopy.reuseMs });
  // Any node reads a manifest; keyed by nothing in particular, so one node reads them all while it is up.
  const reader = options.manifestReader ?? createRuntimeManifestReader({ client: { manifest: (input) => deps.runtimeNodes.run('manifests', undefined, (c) => c.manifest(input)) } });
  const validators = createSchemaValidatorCache({ db });
  const envVars = createEnvVarsService({ db, clock, secrets, cache: createEnvironmentCache({ invalidation: deps.invalidation, clock, logger: deps.logger }) });
  const domains = { reservedDomains: config.reservedDomains, hostedAppDomain: config.hostedAppDomain };
  const versions = createPublishService({
    db, clock, bundles, sourceMaps, reader, validators, assets, domains,
    // A bundle that does not load becomes a log line, and so an error group (issue 25 item 3).
    async loadFailed(appId, target, err) {
      const line = loadFailureLine(appId, target, err, new Date(clock.now()));
      if (line !== null) await logs.ingest('control-plane', [line]);
    },
  });
  const ring = createKeyRing({ db, clock, secrets, logger: deps.logger, rotationMs: config.tokenKeyRotationMs, invalidation: deps.invalidation });
  const tokens = createTokensService({ ring, clock, issuer: config.publicUrl });
  // Each needs the other: errors are recorded as log batches are stored, and a group's examples are log lines.
  const errors = createErrorsService({ db, clock, logger: deps.logger, readLines: (appId, ids) => logs.linesByIds(appId, ids) });
  const logs = createLogsService({
    db, clock, feed: createLogFeed({ kv: deps.kv, logger: deps.logger }), errors, ...(deps.onLinesStored === undefined ? {} : { onStored: deps.onLinesStored }),
  });
  const allowHttpIssuers = config.allowHttpOidcIssuers;
  const storageMetrics = createStorageMetrics(deps.registry);
  const rolloutMetrics = createRolloutMetrics(deps.registry);
  const usageRecorder = createUsageRecorder({ db, clock, logger: deps.logger });
  const queueSent = (installId: string, n: number) => usageRecorder.add(null, installId, { queueSent: n });
  // Each kind of staged effect registers its applier here: storage commits and queue sends.
  const unitOfWork = createUnitOfWork({
    kv: deps.kv,
    clock,
    appliers: {
      [STAGED_COMMIT]: stagedCommitApplier({ clock, onApplied: (space, delta) => storageMetrics.bytes(space.appId, delta) }),
      [STAGED_SEND]: stagedSendApplier({ clock, onSent: queueSent }),
    },
  });
  return {
    apps: createAppsService({ db, clock, secrets, allowLoopbackEndpoints: config.dev }),
    domains: createDomainsService({ db, clock, dns: options.dns ?? createTxtResolver({ servers: config.dnsServers }), reservedDomains: config.reservedDomains }),
    envVars,
    versions,
    versionHistory: createVersionHistoryService({ db, versions }),
    rollouts: createRolloutsService({ db, clock, metrics: rolloutMetrics }),
    rolloutMetrics,
    devApps: createDevAppsService({
      db, clock, secrets, versions, publicUrl: config.publicUrl, ...(options.devSlugSuffix === undefined ? {} : { slugSuffix: options.devSlugSuffix }),
    }),
    installs: createInstallsService({ db, clock, secrets, validators }),
    production: createProductionResolver({ db, env: envVars, baseUrl: config.publicUrl }),
    bundles,
    sourceMaps,
    bundleCollector: createBundleCollector({ db, clock, objects, prefix, ...config.bundleGc, logger: deps.logger }),
    importDiskBundles: () => importDiskBundles({ dir: join(config.dataDir, 'bundles'), db, bundles, logger: deps.logger }),
    tokens,
    ciIdentities: createCiIdentitiesService({ db, clock, tokens, allowHttpIssuers, oidc: createOidcVerifier({ clock, allowHttp: allowHttpIssuers }) }),
    resolver: createCallerResolver({ db, tokens, apiKeys: deps.apiKeys, clock }),
    accessTokens: createCredentialsService({ db, tokens }),
    treeChecker: createCheckTreesService({ kv: deps.kv, images }),
    bundleChecker: createCheckBundlesService({ reader, assets, domains }),
    assets,
    images,
    assetUploads: createAssetUploads({ assets, kv: deps.kv, publicUrl: config.publicUrl }),
    logs,
    errors,
    operatorMetrics: createOperatorMetricsService({
      registry: deps.registry, runtimeNodes: deps.runtimeNodes,
      listApps: async (workspaceId) => (await listApps(db, workspaceId, null)).map((a) => ({ id: a.id, slug: a.slug, name: a.name })),
    }),
    storage: createStorageService({
      db, kv: deps.kv, clock, metrics: storageMetrics, unitOfWork,
      onOperation: (appId, installId, op) => usageRecorder.add(appId, installId, op === 'read' ? { storageReads: 1 } : { storageWrites: 1 }),
    }),
    unitOfWork,
    storageAdmin: createStorageAdmin({ db }),
    usage: createUsageService({ db, clock }),
    usageRecorder,
    usageLoop: createUsageLoop({ db, clock, recorder: usageRecorder, logger: deps.logger }),
    storageSweeper: createStorageSweeper({ db, clock, unitOfWork, intervalMs: STORAGE_SWEEP_INTERVAL_MS, logger: deps.logger }),
    signingSecretsFor: (app, now) => signingSecretsFor(secrets, app, now),
    installConfigFor: (install) => installConfigFor(secrets, install),
    schemaValidators: (appId, version) => validators.schemaValidators(appId, version),
  };
}
