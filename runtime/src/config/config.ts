/**
 * @module config/config
 * The runtime node's configuration, parsed once from the environment with zod. This is the only
 * module that reads `process.env` (main.ts hands it in); everything else receives a `RuntimeConfig`.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { LIMITS } from '@platform/sdk';
import { TELEMETRY_ENV_DOCS, TELEMETRY_ENV_SHAPE, telemetryConfigOf, type TelemetryConfig } from '../telemetry/config.ts';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const list = z.string().transform((v) => v.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0));

/** One row per variable: the default as text and what it does (rendered into the README). */
export const CONFIG_TABLE: ReadonlyArray<{ name: string; default: string; description: string }> = [
  { name: 'RUNTIME_PORT', default: '4001', description: 'Port the runtime node listens on (internal API, hosted ingress, /healthz, /readyz).' },
  { name: 'RUNTIME_METRICS_PORT', default: '9465', description: 'Operator port: `GET /metrics` (Prometheus) is served here only, never on RUNTIME_PORT, which carries public ingress (0 picks a free port). Control planes read the same text at /internal/v1/metrics with the node secret.' },
  { name: 'RUNTIME_METRICS_HOST', default: '{RUNTIME_HOST}', description: 'Interface the operator port listens on.' },
  { name: 'RUNTIME_HOST', default: '127.0.0.1', description: 'Interface to bind.' },
  { name: 'RUNTIME_SECRET', default: '(required, ≥ 16 characters)', description: 'Shared secret the control plane sends as `authorization: Bearer …` on /internal/v1 and that the node sends back when fetching bundles.' },
  { name: 'RUNTIME_PUBLIC_URL', default: 'http://{RUNTIME_HOST}:{RUNTIME_PORT}', description: 'External origin of this node; hosted apps see it in request URLs.' },
  { name: 'CONTROL_PLANE_URL', default: '(unset)', description: 'Origin of the control plane: bundles are fetched from {CONTROL_PLANE_URL}/internal/v1/bundles/{sha256}, apps resolved at /internal/v1/apps/{slug}/production.' },
  { name: 'RUNTIME_HOSTED_APP_DOMAIN', default: '(unset)', description: 'When set, requests for host {slug}.{domain} are routed to that app as well as /apps/{slug}/….' },
  { name: 'RUNTIME_DATA_DIR', default: '{DATA_DIR}/runtime or .data/runtime', description: 'Directory of the on-disk bundle cache.' },
  { name: 'RUNTIME_WORKERS', default: 'number of CPUs', description: 'Sandbox worker processes holding the isolates.' },
  { name: 'RUNTIME_SPARE_WORKERS', default: '1', description: 'Started, idle sandbox workers kept to take a dead worker\'s place or become the quarantine worker at once (0 starts them only when needed).' },
  { name: 'RUNTIME_ISOLATE_MEMORY_MB', default: '128', description: 'Heap limit of one isolate (isolated-vm memoryLimit).' },
  { name: 'RUNTIME_WORKER_ISOLATE_BUDGET_MB', default: '1024', description: 'Heap all isolates of one worker may hold; least recently used idle isolates are evicted past it.' },
  { name: 'RUNTIME_WORKER_MAX_RSS_MB', default: '2048', description: 'Resident memory ceiling of a worker process; past it the worker is killed and replaced.' },
  { name: 'RUNTIME_POOL_MAX', default: '8', description: 'Isolates one app version may hold in one worker (one request per isolate at a time).' },
  { name: 'RUNTIME_ISOLATE_IDLE_MS', default: '120000', description: 'Idle isolates older than this are disposed.' },
  { name: 'RUNTIME_CPU_MS', default: String(LIMITS.hosted.cpuMsPerRequest), description: 'CPU budget of a delivery or route request.' },
  { name: 'RUNTIME_MCP_CPU_MS', default: String(LIMITS.hosted.cpuMsPerMcpRequest), description: 'CPU budget of an MCP request.' },
  { name: 'RUNTIME_STARTUP_CPU_MS', default: '1000', description: 'CPU budget of evaluating a bundle (module top level, manifest read).' },
  { name: 'RUNTIME_ROUTE_DEADLINE_MS', default: '10000', description: 'Wall deadline of a route request.' },
  { name: 'RUNTIME_MCP_DEADLINE_MS', default: '30000', description: 'Wall deadline of an MCP request.' },
  { name: 'RUNTIME_ALLOW_WASM', default: 'false', description: 'Expose WebAssembly to guests. Off: wasm memory is allocated outside the isolate heap limit.' },
  { name: 'RUNTIME_EGRESS_TIMEOUT_MS', default: '10000', description: 'Per outbound request: connect, headers and body time (also bounded by the request deadline).' },
  { name: 'RUNTIME_EGRESS_MAX_RESPONSE_BYTES', default: '8388608', description: 'Largest outbound response body a guest may read, after decompression.' },
  { name: 'RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS', default: '(empty)', description: 'TEST ONLY: host names that resolve to 127.0.0.1, may use http: and may reach loopback. Never set in production.' },
  { name: 'RUNTIME_INGRESS_MAX_BODY_BYTES', default: '5242880', description: 'Largest request body accepted by hosted ingress.' },
  { name: 'RUNTIME_BUNDLE_MEMORY_MB', default: '256', description: 'In-memory bundle cache of the supervisor (on-disk cache is unbounded).' },
  { name: 'RUNTIME_DIRECTORY_TTL_MS', default: '5000', description: 'How long an app resolved from the control plane is cached for ingress.' },
  { name: 'RUNTIME_APP_LOG_LINES', default: '500', description: 'Per-app log lines kept in memory for the author.' },
  { name: 'RUNTIME_LOG_FLUSH_MS', default: '200', description: 'With CONTROL_PLANE_URL: how often the node ships app log lines to {CONTROL_PLANE_URL}/internal/v1/logs (sooner when a batch fills).' },
  { name: 'RUNTIME_METERING', default: 'on', description: 'BENCH ONLY: `off` counts no usage (the bench\'s run that measures what metering costs). Never set in production: usage would go uncounted.' },
  { name: 'RUNTIME_LOG_LINES_PER_SECOND', default: '200', description: 'App log lines one app may ship per second from this node; past it lines are dropped and one line says how many.' },
  { name: 'RUNTIME_FLEET', default: 'off', description: '`redis`: the node joins the fleet registry at REDIS_URL (a record with a heartbeat and a TTL, marked draining on SIGTERM) and control planes with `RUNTIME_FLEET=redis` place apps on it. `off`: a node of its own, reached at the control plane\'s RUNTIME_URL.' },
  { name: 'REDIS_URL', default: '(unset)', description: 'Redis of the fleet registry (required with RUNTIME_FLEET=redis).' },
  { name: 'REDIS_PREFIX', default: 'platform:', description: 'Prefix of every Redis key of the deployment; the same on control planes and nodes.' },
  { name: 'RUNTIME_NODE_ID', default: '{hostname}-{pid}-{random}', description: 'This process in the fleet registry; a restarted node is a new node.' },
  { name: 'RUNTIME_INTERNAL_URL', default: 'http://{RUNTIME_HOST}:{RUNTIME_PORT}', description: 'Where control planes reach this node (its internal API); in Kubernetes the pod IP.' },
  { name: 'RUNTIME_HEARTBEAT_MS', default: '1000', description: 'How often the node rewrites its registry record.' },
  { name: 'RUNTIME_NODE_TTL_MS', default: '5000', description: 'How long a record outlives its last heartbeat: a node killed without a word leaves the fleet after this.' },
  { name: 'RUNTIME_DRAIN_MS', default: '30000', description: 'On SIGTERM: how long in-flight requests may take to finish before the node stops anyway.' },
  { name: 'RUNTIME_HANDOFF', default: 'off', description: '`ingress`: each hosted-ingress connection is handed once to a sandbox worker, which parses its requests and runs light apps itself (no supervisor hop per request); the internal API stays on the supervisor. Opt-in: a later request on a handed connection for anything but hosted ingress is answered 421, and a worker keeps the directory answer for an app for RUNTIME_DIRECTORY_TTL_MS (docs/decisions/runtime.md, Runtime v3).' },
  { name: 'LOG_LEVEL', default: 'info', description: 'pino log level of the node.' },
  { name: 'LOG_FORMAT', default: 'json', description: '`json` (one JSON object a line) or `pretty` (readable, coloured; what `npm start` passes at a terminal).' },
  ...Object.entries(TELEMETRY_ENV_DOCS).map(([name, [def, description]]) => ({ name, default: def, description })),
];

const EnvSchema = z.object({
  RUNTIME_PORT: int(0, 65_535).default(4001),
  RUNTIME_HOST: z.string().min(1).default('127.0.0.1'),
  RUNTIME_METRICS_PORT: int(0, 65_535).default(9465),
  RUNTIME_METRICS_HOST: z.string().min(1).optional(),
  RUNTIME_SECRET: z.string({ error: 'RUNTIME_SECRET is required: the shared secret of the internal API' }).min(16, 'RUNTIME_SECRET must be at least 16 characters'),
  RUNTIME_PUBLIC_URL: z.url().optional(),
  CONTROL_PLANE_URL: z.url().optional(),
  RUNTIME_HOSTED_APP_DOMAIN: z.string().min(1).transform((v) => v.toLowerCase().replace(/\.$/, '')).optional(),
  RUNTIME_DATA_DIR: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).optional(),
  RUNTIME_WORKERS: int(1, 256).optional(),
  RUNTIME_SPARE_WORKERS: int(0, 16).default(1),
  RUNTIME_ISOLATE_MEMORY_MB: int(8, 4096).default(128),
  RUNTIME_WORKER_ISOLATE_BUDGET_MB: int(16, 65_536).default(1024),
  RUNTIME_WORKER_MAX_RSS_MB: int(64, 131_072).default(2048),
  RUNTIME_POOL_MAX: int(1, 256).default(8),
  RUNTIME_ISOLATE_IDLE_MS: int(1000, 86_400_000).default(120_000),
  RUNTIME_CPU_MS: int(1, 60_000).default(LIMITS.hosted.cpuMsPerRequest),
  RUNTIME_MCP_CPU_MS: int(1, 60_000).default(LIMITS.hosted.cpuMsPerMcpRequest),
  RUNTIME_STARTUP_CPU_MS: int(1, 60_000).default(1000),
  RUNTIME_ROUTE_DEADLINE_MS: int(100, 600_000).default(10_000),
  RUNTIME_MCP_DEADLINE_MS: int(100, 600_000).default(30_000),
  RUNTIME_ALLOW_WASM: flag.default(false),
  RUNTIME_EGRESS_TIMEOUT_MS: int(100, 600_000).default(10_000),
  RUNTIME_EGRESS_MAX_RESPONSE_BYTES: int(1024, 1024 * 1024 * 1024).default(8 * 1024 * 1024),
  RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: list.default([]),
  RUNTIME_INGRESS_MAX_BODY_BYTES: int(0, 1024 * 1024 * 1024).default(5 * 1024 * 1024),
  RUNTIME_BUNDLE_MEMORY_MB: int(1, 65_536).default(256),
  RUNTIME_DIRECTORY_TTL_MS: int(0, 3_600_000).default(5000),
  RUNTIME_APP_LOG_LINES: int(10, 100_000).default(500),
  RUNTIME_LOG_FLUSH_MS: int(10, 60_000).default(200),
  RUNTIME_METERING: z.enum(['on', 'off']).default('on'),
  RUNTIME_LOG_LINES_PER_SECOND: int(1, 100_000).default(200),
  RUNTIME_FLEET: z.enum(['off', 'redis']).default('off'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  REDIS_PREFIX: z.string().max(100).default('platform:'),
  RUNTIME_NODE_ID: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'RUNTIME_NODE_ID: letters, digits, dot, dash and underscore').optional(),
  RUNTIME_INTERNAL_URL: z.url().optional(),
  RUNTIME_HEARTBEAT_MS: int(100, 60_000).default(1000),
  RUNTIME_NODE_TTL_MS: int(300, 600_000).default(5000),
  RUNTIME_DRAIN_MS: int(0, 3_600_000).default(30_000),
  RUNTIME_HANDOFF: z.enum(['off', 'ingress']).default('off'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  ...TELEMETRY_ENV_SHAPE,
});

/** Limits of one sandbox worker process; sent to each worker when it starts. */
import type { IsolatedVmBuild } from './ivm-build.ts';

export interface WorkerLimits {
  isolateMemoryMb: number;
  isolateBudgetMb: number;
  poolMax: number;
  isolateIdleMs: number;
  startupCpuMs: number;
  allowWasm: boolean;
  /**
   * Which isolated-vm the workers load: `patched` (runtime/native: exact CPU budgets), always on a
   * runtime node; `stock` (the package's prebuilt binary) only in `platform dev`'s sandbox where the
   * patched build is absent, its budgets then wall-clock per call (config/ivm-build.ts). Not an
   * environment variable: only `createRuntimeNode({ sandbox: 'development' })` can choose it.
   */
  isolatedVm: IsolatedVmBuild;
}

export interface RuntimeConfig {
  port: number;
  host: string;
  /** The operator port serving GET /metrics. */
  metrics: { port: number; host: string };
  secret: string;
  publicUrl: string;
  controlPlaneUrl: string | null;
  hostedAppDomain: string | null;
  dataDir: string;
  workers: number;
  spareWorkers: number;
  workerMaxRssMb: number;
  worker: WorkerLimits;
  cpuMs: { request: number; mcp: number };
  deadlinesMs: { route: number; mcp: number };
  egress: { timeoutMs: number; maxResponseBytes: number; testLoopbackHosts: string[] };
  ingressMaxBodyBytes: number;
  bundleMemoryBytes: number;
  directoryTtlMs: number;
  appLogLines: number;
  /** Shipping app log lines to the control plane (with CONTROL_PLANE_URL). */
  logShipping: { flushMs: number; linesPerSecond: number };
  /** False only in the bench's run without metering (RUNTIME_METERING=off). */
  metering: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  logFormat: 'json' | 'pretty';
  /** The fleet registry, or null: a node of its own (`npm start`, one control plane, no Redis). */
  fleet: FleetConfig | null;
  /** Where control planes reach this node. */
  internalUrl: string;
  drainMs: number;
  /** `ingress`: hosted-ingress connections are handed to the workers (RUNTIME_HANDOFF). */
  handoff: 'off' | 'ingress';
  /** OpenTelemetry export (OTEL_*), or null: off. */
  telemetry: TelemetryConfig | null;
}

export interface FleetConfig {
  redisUrl: string;
  prefix: string;
  nodeId: string;
  heartbeatMs: number;
  ttlMs: number;
}

/**
 * Parses the environment; throws an Error listing every problem.
 *
 * @example
 * const config = loadConfig({ RUNTIME_SECRET: 'a-long-shared-secret' });
 * config.port; // 4001
 */
export function loadConfig(env: Record<string, string | undefined>): RuntimeConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid runtime configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.RUNTIME_FLEET === 'redis' && e.REDIS_URL === undefined) throw new Error('Invalid runtime configuration:\n  REDIS_URL: required with RUNTIME_FLEET=redis');
  const publicHost = e.RUNTIME_HOST === '0.0.0.0' || e.RUNTIME_HOST === '::' ? 'localhost' : e.RUNTIME_HOST;
  return {
    port: e.RUNTIME_PORT,
    host: e.RUNTIME_HOST,
    metrics: { port: e.RUNTIME_METRICS_PORT, host: e.RUNTIME_METRICS_HOST ?? e.RUNTIME_HOST },
    secret: e.RUNTIME_SECRET,
    publicUrl: stripSlash(e.RUNTIME_PUBLIC_URL ?? `http://${publicHost}:${e.RUNTIME_PORT}`),
    controlPlaneUrl: e.CONTROL_PLANE_URL === undefined ? null : stripSlash(e.CONTROL_PLANE_URL),
    hostedAppDomain: e.RUNTIME_HOSTED_APP_DOMAIN ?? null,
    dataDir: resolve(e.RUNTIME_DATA_DIR ?? (e.DATA_DIR === undefined ? '.data/runtime' : `${e.DATA_DIR}/runtime`)),
    workers: e.RUNTIME_WORKERS ?? Math.max(1, availableParallelism()),
    spareWorkers: e.RUNTIME_SPARE_WORKERS,
    workerMaxRssMb: e.RUNTIME_WORKER_MAX_RSS_MB,
    worker: {
      isolateMemoryMb: e.RUNTIME_ISOLATE_MEMORY_MB,
      isolateBudgetMb: e.RUNTIME_WORKER_ISOLATE_BUDGET_MB,
      poolMax: e.RUNTIME_POOL_MAX,
      isolateIdleMs: e.RUNTIME_ISOLATE_IDLE_MS,
      startupCpuMs: e.RUNTIME_STARTUP_CPU_MS,
      allowWasm: e.RUNTIME_ALLOW_WASM,
      isolatedVm: 'patched',
    },
    cpuMs: { request: e.RUNTIME_CPU_MS, mcp: e.RUNTIME_MCP_CPU_MS },
    deadlinesMs: { route: e.RUNTIME_ROUTE_DEADLINE_MS, mcp: e.RUNTIME_MCP_DEADLINE_MS },
    egress: {
      timeoutMs: e.RUNTIME_EGRESS_TIMEOUT_MS,
      maxResponseBytes: e.RUNTIME_EGRESS_MAX_RESPONSE_BYTES,
      testLoopbackHosts: e.RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS.map((h) => h.replace(/\.$/, '')),
    },
    ingressMaxBodyBytes: e.RUNTIME_INGRESS_MAX_BODY_BYTES,
    bundleMemoryBytes: e.RUNTIME_BUNDLE_MEMORY_MB * 1024 * 1024,
    directoryTtlMs: e.RUNTIME_DIRECTORY_TTL_MS,
    appLogLines: e.RUNTIME_APP_LOG_LINES,
    logShipping: { flushMs: e.RUNTIME_LOG_FLUSH_MS, linesPerSecond: e.RUNTIME_LOG_LINES_PER_SECOND },
    metering: e.RUNTIME_METERING === 'on',
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    fleet: e.RUNTIME_FLEET === 'off' || e.REDIS_URL === undefined ? null : {
      redisUrl: e.REDIS_URL,
      prefix: e.REDIS_PREFIX,
      nodeId: e.RUNTIME_NODE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      heartbeatMs: e.RUNTIME_HEARTBEAT_MS,
      ttlMs: Math.max(e.RUNTIME_NODE_TTL_MS, 2 * e.RUNTIME_HEARTBEAT_MS),
    },
    internalUrl: stripSlash(e.RUNTIME_INTERNAL_URL ?? `http://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${e.RUNTIME_PORT}`),
    drainMs: e.RUNTIME_DRAIN_MS,
    handoff: e.RUNTIME_HANDOFF,
    telemetry: telemetryConfigOf(e),
  };
}

function stripSlash(value: string): string {
  return value.endsWith('/') ? value.slice(0, -1) : value;
}
