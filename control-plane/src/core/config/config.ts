/**
 * @module core/config/config
 * The control plane's environment, parsed once with zod. Every variable is listed in
 * `CONFIG_VARIABLES` (name, default, description), the one source of the README's table.
 * This is the only module that reads `process.env`.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { TELEMETRY_ENV_DOCS, TELEMETRY_ENV_SHAPE, telemetryConfigOf, type TelemetryConfig } from '@platform/runtime/telemetry-config';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const port = z.coerce.number().int().min(0).max(65_535);
const list = (value: string): string[] => value.split(',').map((s) => s.trim()).filter((s) => s !== '');
const url = z.url({ protocol: /^https?$/ });

const envShape = {
  PORT: port.default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT: port.default(9464),
  METRICS_HOST: z.string().min(1).optional(),
  PUBLIC_URL: url.optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_PREPARED_STATEMENTS: z.coerce.number().int().min(0).max(100_000).default(1000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  MASTER_KEY: z.base64().refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64').optional(),
  OPERATOR_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  RUNTIME_PORT: port.default(4001),
  RUNTIME_URL: url.optional(),
  RUNTIME_FLEET: z.enum(['off', 'redis']).default('off'),
  REDIS_PREFIX: z.string().max(100).default('platform:'),
  RUNTIME_SECRET: z.string().min(16).optional(),
  RUNTIME_ENTRY: z.string().min(1).optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  TOKEN_KEY_ROTATION_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(720),
  DNS_SERVERS: z.string().transform(list).pipe(z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+)(:\d{1,5})?$/, 'an IP address, optionally with :port'))).optional(),
  RESERVED_DOMAINS: z.string().transform(list).pipe(z.array(z.string().regex(/^[a-z0-9.-]+$/, 'a lowercase domain'))).optional(),
  HOSTED_APP_DOMAIN: z.string().regex(/^[a-z0-9.-]+$/, 'a lowercase domain').optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).max(200).default('Platform <platform@localhost>'),
  OUTBOX_WORKERS: z.coerce.number().int().min(0).max(32).default(2),
  OUTBOX_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(100),
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  OUTBOX_LEASE_MS: z.coerce.number().int().min(20_000).max(3_600_000).default(60_000),
  SCHEDULE_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  SCHEDULE_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(500),
  DELIVERY_RETENTION_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(24 * 7),
  SETTLED_DELIVERY_RETENTION_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(24 * 30),
  APP_LOG_RETENTION_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(72),
  ERROR_GROUP_RETENTION_DAYS: z.coerce.number().int().min(1).max(3660).default(30),
  BUNDLE_STORE: z.enum(['database', 's3']).default('database'),
  S3_ENDPOINT: url.optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name').optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]+$/, 'a region name such as us-east-1').default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z.string().regex(/^([A-Za-z0-9._-]+\/)*$/, 'empty, or path segments each ending in /').default('bundles/'),
  BUNDLE_GC_GRACE_MINUTES: z.coerce.number().int().min(10).max(60 * 24 * 366).default(24 * 60),
  BUNDLE_GC_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(60 * 24 * 7).default(60),
  ASSET_S3_PREFIX: z.string().regex(/^([A-Za-z0-9._-]+\/)*$/, 'empty, or path segments each ending in /').default('assets/'),
  IMAGE_COPY_REUSE_MINUTES: z.coerce.number().int().min(0).max(60 * 24 * 366).default(60),
  IMAGE_COPY_TEST_LOOPBACK_HOSTS: z.string().transform(list).pipe(z.array(z.string().regex(/^[a-z0-9.-]+$/, 'a lowercase host name'))).default([]),
  ...TELEMETRY_ENV_SHAPE,
};

/** One row of the configuration table (README). */
export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

const docs = {
  PORT: ['4000', 'Port of the control plane HTTP server (0 picks a free port).'],
  HOST: ['127.0.0.1', 'Interface the control plane listens on; set 0.0.0.0 in containers.'],
  METRICS_PORT: ['9464', 'Operator port: `GET /metrics` (Prometheus) is served here only, never on PORT (0 picks a free port). Keep it off the public network; scrape it by pod or container address.'],
  METRICS_HOST: ['(HOST)', 'Interface the operator port listens on.'],
  PUBLIC_URL: ['http://localhost:{PORT}', 'Origin the control plane is reached at (`{base_url}` of the spec).'],
  DATA_DIR: ['.data', 'Directory for the embedded database, generated keys and `credentials.json`.'],
  DATABASE_URL: ['(unset: PGlite under DATA_DIR)', 'PostgreSQL connection string. Unset runs the embedded PGlite database.'],
  DATABASE_STATEMENT_TIMEOUT_MS: ['30000', 'PostgreSQL cancels a statement that runs longer (the request answers 503 with Retry-After); 0: no limit. Migrations are not limited.'],
  DATABASE_PREPARED_STATEMENTS: ['1000', 'Distinct statements each PostgreSQL connection keeps prepared (parsed and planned once). 0: none, e.g. behind a connection pooler in transaction mode that does not track prepared statements.'],
  REDIS_URL: ['(unset: in-process stand-in)', 'Redis connection string for rate limits, idempotency windows and invalidation.'],
  MASTER_KEY: ['(generated into DATA_DIR/master.key)', '32 random bytes, base64: encrypts secrets at rest (AES-256-GCM). Required in production with DATABASE_URL.'],
  OPERATOR_TOKEN: ['(unset)', 'Bearer token that may create workspaces. Unset with the embedded database: creation is open; unset with DATABASE_URL outside production: generated into DATA_DIR/operator.token.'],
  LOG_LEVEL: ['info', 'pino level: fatal, error, warn, info, debug, trace or silent.'],
  LOG_FORMAT: ['auto', '`json` (one JSON object a line), `pretty` (readable, coloured), or `auto`: pretty when stdout is a terminal and NODE_ENV is not production, else JSON. `npm start` gives the runtime node the same.'],
  RUNTIME_PORT: ['4001', 'Port of the runtime node that `npm start` launches.'],
  RUNTIME_URL: ['http://localhost:{RUNTIME_PORT}', 'Where the control plane reaches the runtime node (with RUNTIME_FLEET=off).'],
  RUNTIME_FLEET: ['off', '`redis`: runtime nodes are found in the fleet registry at REDIS_URL (nodes started with `RUNTIME_FLEET=redis`); each app version is placed on them by rendezvous hashing. `off`: the one node at RUNTIME_URL.'],
  REDIS_PREFIX: ['platform:', 'Prefix of every Redis key and channel of the deployment; the same on control planes and runtime nodes.'],
  RUNTIME_SECRET: ['(generated into DATA_DIR/runtime.secret)', "Shared secret of the runtime node's internal API. Required in production with DATABASE_URL."],
  RUNTIME_ENTRY: ['runtime/src/main.ts', 'Script `npm start` runs as the runtime node (override for tests or custom builds).'],
  NODE_ENV: ['development', '`production` turns off development conveniences (generated secrets with a shared database).'],
  DNS_SERVERS: ['(unset: the system resolvers)', 'Comma-separated DNS servers (`ip` or `ip:port`) that verify app domains (TXT at `_platform-verify.<domain>`).'],
  RESERVED_DOMAINS: ['(the host of PUBLIC_URL when it is a domain)', "Comma-separated domains of the service: no app claims them or calls out to them (`reserved-domain`)."],
  HOSTED_APP_DOMAIN: ['(unset; `npm start`: apps.localhost)', "Domain whose `<slug>.` subdomains serve hosted apps; an MCP server there needs no verified domain. `npm start` gives its runtime node the same."],
  SMTP_URL: ['(unset: mail stays in the console mailbox)', 'SMTP server for mail to members (`smtp://user:pass@host:587` or `smtps://…`), for example the owner of an app whose deliveries were paused.'],
  MAIL_FROM: ['Platform <platform@localhost>', 'Sender of the mail the service writes.'],
  OUTBOX_WORKERS: ['2', 'Lifecycle delivery loops in this process (0: none; other replicas share the work through row locks).'],
  OUTBOX_BATCH_SIZE: ['100', 'Deliveries a loop claims at once.'],
  OUTBOX_CONCURRENCY: ['64', 'Deliveries of one batch sent at the same time.'],
  OUTBOX_POLL_MS: ['1000', 'How often an idle loop looks for due deliveries when no notification woke it.'],
  OUTBOX_LEASE_MS: ['60000', 'How long a claimed delivery stays with its worker before another may take it (at least 20 s: longer than the 15 s acknowledgement time).'],
  SCHEDULE_POLL_MS: ['1000', 'How often the schedule loop looks for due schedules (it runs where OUTBOX_WORKERS > 0; every such process shares the work).'],
  SCHEDULE_BATCH_SIZE: ['500', 'Due schedules the schedule loop claims in one transaction.'],
  DELIVERY_RETENTION_HOURS: ['168', 'How long acknowledged lifecycle deliveries and their attempts are kept.'],
  SETTLED_DELIVERY_RETENTION_HOURS: ['720', 'How long dead, cancelled and failed deliveries are kept.'],
  APP_LOG_RETENTION_HOURS: ['72', 'How long hosted apps\' log lines (`GET /v0/apps/{app_id}/logs`) are kept; pruned hourly by the processes that run delivery loops.'],
  ERROR_GROUP_RETENTION_DAYS: ['30', 'How long an error group (`GET /v0/apps/{app_id}/errors`) is kept after its last occurrence; pruned hourly with the log lines.'],
  BUNDLE_STORE: ['database', 'Where hosted bundles\' bytes live: `database` (a table of the database, at most 10 MB each) or `s3` (an S3-compatible object store, S3_*). The database indexes them either way; control planes share no disk.'],
  S3_ENDPOINT: ['(required with BUNDLE_STORE=s3)', 'Origin of the S3-compatible store, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://minio:9000` (objects are addressed path-style: `{endpoint}/{bucket}/{key}`).'],
  S3_BUCKET: ['(required with BUNDLE_STORE=s3)', 'Bucket of the bundles (it must exist).'],
  S3_REGION: ['us-east-1', 'Region the requests are signed for (SigV4).'],
  S3_ACCESS_KEY_ID: ['(required with BUNDLE_STORE=s3)', 'Access key of the store.'],
  S3_SECRET_ACCESS_KEY: ['(required with BUNDLE_STORE=s3)', 'Secret key of the store.'],
  S3_PREFIX: ['bundles/', 'Key prefix of bundle objects (`{prefix}{sha256}.js`).'],
  BUNDLE_GC_GRACE_MINUTES: ['1440', 'A stored bundle no version refers to is collected once it was last uploaded this long ago (an upload whose version is still being recorded is never collected).'],
  BUNDLE_GC_INTERVAL_MINUTES: ['60', 'How often each control plane tries to collect unreferenced bundles (one at a time across replicas, by an advisory lock); 0: never.'],
  ASSET_S3_PREFIX: ['assets/', 'With BUNDLE_STORE=s3: key prefix of copied images and uploaded icons (`{prefix}{sha256}`), in the bundles\' bucket.'],
  IMAGE_COPY_REUSE_MINUTES: ['60', 'A tree\'s image URL copied this recently is not downloaded again (the same bytes from any URL are one asset regardless); 0: every tree downloads its images.'],
  IMAGE_COPY_TEST_LOOPBACK_HOSTS: ['(empty)', 'TEST ONLY: comma-separated host names whose image URLs resolve to 127.0.0.1, may reach loopback there and are fetched over http (a test image server). Refused with NODE_ENV=production.'],
  TOKEN_KEY_ROTATION_HOURS: ['720', 'Hours an ES256 token signing key signs before the next one takes over (old keys verify until their tokens expire).'],
  ...TELEMETRY_ENV_DOCS,
} as const satisfies Record<keyof typeof envShape, readonly [string, string]>;

export const CONFIG_VARIABLES: readonly ConfigVariable[] = Object.entries(docs).map(([name, [def, description]]) => ({
  name,
  default: def,
  description,
}));

export interface Config {
  port: number;
  host: string;
  /** The operator port (`/metrics`) and its interface. */
  metricsPort: number;
  metricsHost: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Distinct statements a Postgres connection keeps prepared (0: none). */
  databasePreparedStatements: number;
  databaseStatementTimeoutMs: number;
  redisUrl: string | null;
  masterKey: Buffer;
  operatorToken: string | null;
  logLevel: LogLevel;
  /** `auto` as configured; the logger decides with the terminal (core/log/logger.ts). */
  logFormat: 'auto' | 'json' | 'pretty';
  runtimePort: number;
  runtimeUrl: string;
  /** Where runtime nodes are found: the one at `runtimeUrl`, or the fleet registry in Redis. */
  runtimeFleet: 'off' | 'redis';
  redisPrefix: string;
  runtimeSecret: string;
  runtimeEntry: string | null;
  nodeEnv: 'development' | 'production' | 'test';
  /** How long a token signing key signs before the next one takes over (ms). */
  tokenKeyRotationMs: number;
  /** CI identity issuers may be `http://` (tests run an OIDC issuer on loopback); `https://` only otherwise. */
  allowHttpOidcIssuers: boolean;
  /** DNS servers for domain verification; empty: the system's. */
  dnsServers: string[];
  /** The service's own domains (`reserved-domain` of the manifest rules). */
  reservedDomains: string[];
  hostedAppDomain: string | null;
  /** SMTP server for mail to members; null keeps mail in the mailbox table only. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Lifecycle outbox workers of this process. */
  outbox: { workers: number; batchSize: number; concurrency: number; pollMs: number; leaseMs: number };
  /** The schedule loop (runs where outbox workers run). */
  schedules: { pollMs: number; batchSize: number };
  /** How long delivered lifecycle deliveries, and settled ones (dead, cancelled, failed), are kept (ms). */
  deliveryRetentionMs: number;
  settledDeliveryRetentionMs: number;
  appLogRetentionMs: number;
  errorGroupRetentionMs: number;
  /** OpenTelemetry export (OTEL_*), or null: off. */
  telemetry: TelemetryConfig | null;
  /** Where bundle bytes live: the database, or an S3-compatible store. */
  bundleStore: BundleStoreConfig;
  /** The unreferenced-bundle collector: grace since the last upload, and how often it runs (0: never). */
  bundleGc: { graceMs: number; intervalMs: number };
  /** Copying the images trees name: how long a URL's copy is reused, the test-only loopback names. */
  imageCopy: { reuseMs: number; testLoopbackHosts: string[] };
  /** Key prefix of assets in the object store (BUNDLE_STORE=s3). */
  assetPrefix: string;
  /** Development conveniences allowed (everything but NODE_ENV=production). */
  dev: boolean;
  /** No DATABASE_URL: the embedded default (PGlite under DATA_DIR). */
  embedded: boolean;
  /** `open`: anyone may create a workspace (embedded default without a token); `operator`: the token is required. */
  workspaceCreation: 'open' | 'operator';
}

export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  prefix: string;
}

export type BundleStoreConfig = { kind: 'database' } | { kind: 's3'; s3: S3Config };

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses the environment into a `Config`. Secrets that are absent are generated and kept under
 * DATA_DIR (mode 0600) when that is safe: always with the embedded database, and outside production
 * with a shared one. In production with a shared database every replica must agree, so a missing
 * MASTER_KEY or RUNTIME_SECRET is an error there instead.
 *
 * @example
 * const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent' });
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty values count as unset: `FOO=` in a shell or a compose file means "no value".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = z.object(envShape).safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const embedded = e.DATABASE_URL === undefined;
  const dev = e.NODE_ENV !== 'production';
  const mayGenerate = embedded || dev;
  const problems: string[] = [];

  const kept = (name: string, file: string, make: () => string): string => {
    if (!mayGenerate) {
      problems.push(`${name}: required in production with DATABASE_URL (every replica must share it)`);
      return '';
    }
    return keepGenerated(dataDir, file, make);
  };
  const masterKey = e.MASTER_KEY ?? kept('MASTER_KEY', 'master.key', () => randomBytes(32).toString('base64'));
  const runtimeSecret = e.RUNTIME_SECRET ?? kept('RUNTIME_SECRET', 'runtime.secret', () => randomBytes(32).toString('base64url'));
  let operatorToken = e.OPERATOR_TOKEN ?? null;
  if (operatorToken === null && !embedded && dev) {
    operatorToken = keepGenerated(dataDir, 'operator.token', () => randomBytes(24).toString('base64url'));
  }
  if (!dev && e.IMAGE_COPY_TEST_LOOPBACK_HOSTS.length > 0) problems.push('IMAGE_COPY_TEST_LOOPBACK_HOSTS: test only, never with NODE_ENV=production');
  if (e.RUNTIME_FLEET === 'redis' && e.REDIS_URL === undefined) problems.push('REDIS_URL: required with RUNTIME_FLEET=redis (the fleet registry)');
  const masterKeyBytes = Buffer.from(masterKey, 'base64');
  if (problems.length === 0 && masterKeyBytes.length !== 32) {
    problems.push(`MASTER_KEY: ${join(dataDir, 'master.key')} does not hold 32 bytes of base64`);
  }
  const bundleStore = bundleStoreOf(e, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: e.PORT,
    host: e.HOST,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST ?? e.HOST,
    publicUrl: stripSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`),
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    redisUrl: e.REDIS_URL ?? null,
    masterKey: masterKeyBytes,
    operatorToken,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    runtimePort: e.RUNTIME_PORT,
    runtimeUrl: stripSlash(e.RUNTIME_URL ?? `http://localhost:${e.RUNTIME_PORT}`),
    runtimeFleet: e.RUNTIME_FLEET,
    redisPrefix: e.REDIS_PREFIX,
    runtimeSecret,
    runtimeEntry: e.RUNTIME_ENTRY ?? null,
    nodeEnv: e.NODE_ENV,
    tokenKeyRotationMs: e.TOKEN_KEY_ROTATION_HOURS * 3_600_000,
    allowHttpOidcIssuers: e.NODE_ENV === 'test',
    dnsServers: e.DNS_SERVERS ?? [],
    reservedDomains: e.RESERVED_DOMAINS ?? defaultReservedDomains(e.PUBLIC_URL),
    hostedAppDomain: e.HOSTED_APP_DOMAIN ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    outbox: { workers: e.OUTBOX_WORKERS, batchSize: e.OUTBOX_BATCH_SIZE, concurrency: e.OUTBOX_CONCURRENCY, pollMs: e.OUTBOX_POLL_MS, leaseMs: e.OUTBOX_LEASE_MS },
    schedules: { pollMs: e.SCHEDULE_POLL_MS, batchSize: e.SCHEDULE_BATCH_SIZE },
    deliveryRetentionMs: e.DELIVERY_RETENTION_HOURS * 3_600_000,
    settledDeliveryRetentionMs: e.SETTLED_DELIVERY_RETENTION_HOURS * 3_600_000,
    appLogRetentionMs: e.APP_LOG_RETENTION_HOURS * 3_600_000,
    errorGroupRetentionMs: e.ERROR_GROUP_RETENTION_DAYS * 86_400_000,
    telemetry: telemetryConfigOf(e),
    bundleStore,
    bundleGc: { graceMs: e.BUNDLE_GC_GRACE_MINUTES * 60_000, intervalMs: e.BUNDLE_GC_INTERVAL_MINUTES * 60_000 },
    imageCopy: { reuseMs: e.IMAGE_COPY_REUSE_MINUTES * 60_000, testLoopbackHosts: e.IMAGE_COPY_TEST_LOOPBACK_HOSTS },
    assetPrefix: e.ASSET_S3_PREFIX,
    dev,
    embedded,
    workspaceCreation: embedded && operatorToken === null ? 'open' : 'operator',
  };
}

/**
 * The environment of the runtime node that `main-all` launches: ours, plus the port and the shared
 * secret the two processes must agree on.
 */
/**
 * `auto` resolved: readable lines for a developer at a terminal, JSON everywhere else (containers,
 * files, log shippers).
 * @example logFormatOf({ logFormat: 'auto', dev: true }) // 'pretty' when stdout is a terminal
 */
export function logFormatOf(config: Pick<Config, 'logFormat' | 'dev'>, isTty: boolean = process.stdout.isTTY === true): 'json' | 'pretty' {
  if (config.logFormat !== 'auto') return config.logFormat;
  return config.dev && isTty ? 'pretty' : 'json';
}

export function runtimeChildEnv(config: Config): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return {
    ...env,
    RUNTIME_PORT: String(config.runtimePort),
    RUNTIME_SECRET: config.runtimeSecret,
    CONTROL_PLANE_URL: config.publicUrl,
    LOG_LEVEL: config.logLevel,
    LOG_FORMAT: logFormatOf(config),
    DATA_DIR: config.dataDir,
    // METRICS_PORT=0 (a free port: tests, several stacks on one machine) frees the node's operator port too.
    ...(config.metricsPort === 0 && env.RUNTIME_METRICS_PORT === undefined ? { RUNTIME_METRICS_PORT: '0' } : {}),
    // The same hosted-app domain in both processes: the control plane validates `<slug>.<domain>`
    // MCP URLs against it, the node routes those hosts to the app.
    ...(config.hostedAppDomain === null ? {} : { RUNTIME_HOSTED_APP_DOMAIN: config.hostedAppDomain }),
    // One OTEL_SERVICE_NAME for the whole of npm start would name both processes alike in a trace
    // backend; the node is the same service's runtime, so it gets the name with `-runtime` after it.
    ...(env.OTEL_SERVICE_NAME === undefined || env.OTEL_SERVICE_NAME === '' ? {} : { OTEL_SERVICE_NAME: `${env.OTEL_SERVICE_NAME}-runtime` }),
  };
}

/** BUNDLE_STORE=s3 needs the store's endpoint, bucket and keys; each one missing is a problem. */
function bundleStoreOf(e: z.infer<z.ZodObject<typeof envShape>>, problems: string[]): BundleStoreConfig {
  if (e.BUNDLE_STORE === 'database') return { kind: 'database' };
  const required = { S3_ENDPOINT: e.S3_ENDPOINT, S3_BUCKET: e.S3_BUCKET, S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY };
  for (const [name, value] of Object.entries(required)) if (value === undefined) problems.push(`${name}: required with BUNDLE_STORE=s3`);
  return {
    kind: 's3',
    s3: {
      endpoint: stripSlash(e.S3_ENDPOINT ?? ''), bucket: e.S3_BUCKET ?? '', region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID ?? '', secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '', prefix: e.S3_PREFIX,
    },
  };
}

/** The host of PUBLIC_URL when it is a DNS name (not localhost, not an IP address). */
function defaultReservedDomains(publicUrl: string | undefined): string[] {
  if (publicUrl === undefined) return [];
  const host = new URL(publicUrl).hostname.toLowerCase();
  return host.includes('.') && !/^[0-9.]+$/.test(host) && !host.startsWith('[') ? [host] : [];
}

function stripSlash(value: string): string {
  return value.endsWith('/') ? value.slice(0, -1) : value;
}

/**
 * Reads DATA_DIR/file, creating it first with `make()`. The value is written to a private temporary
 * file and hard-linked into place: the link is atomic and fails if the file exists, so two processes
 * starting at once agree on one value and neither reads a half-written file.
 */
function keepGenerated(dataDir: string, file: string, make: () => string): string {
  const path = join(dataDir, file);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, make() + '\n', { flag: 'wx', mode: 0o600 });
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(path, 'utf8').trim();
}
