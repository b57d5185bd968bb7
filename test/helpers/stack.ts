/**
 * `startStack()`: one control plane on a free port with its own database (PGlite in memory, or a
 * fresh schema of real Postgres), its own key-value store (in-process, or a key prefix of real
 * Redis) and a manual clock, plus small clients to call it. Later suites reuse it.
 *
 *   const stack = await startStack();
 *   const { client } = await stack.createWorkspace();
 *   const res = await client.post('/circles', { name: 'General', visibility: 'public' });
 *   await stack.stop();
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import {
  createControlPlane, createLogger, createManualClock, createMemoryKv, createPgliteDb, createRedisKv, loadConfig, migrate, openTelemetry,
  type Config, type ControlPlane, type ControlPlaneDeps, type ControlPlaneTelemetry, type Db, type Kv, type ManualClock,
} from '@platform/control-plane';
import { absentReason, dropRedisPrefix, freshPgSchema, postgresUrl, redisUrl, runId } from './services.ts';

export interface StackOptions {
  /** Default: `postgres` when DATABASE_URL is set, else `pglite` (in memory). `postgres` without
   * DATABASE_URL uses the run's private server (helpers/services.global.ts). */
  db?: 'pglite' | 'postgres';
  /** Default: `redis` when REDIS_URL is set, else `memory`; `redis` without it, the run's private one. */
  kv?: 'memory' | 'redis';
  /** The Redis of `kv: 'redis'`, instead of REDIS_URL or the run's: a suite's own, which it may pause or stop. */
  redisUrl?: string;
  /** Extra environment for the config (wins over the stack's own). */
  env?: Record<string, string>;
  /** Where log lines go (default: nowhere unless TEST_LOG_LEVEL is set). */
  logStream?: DestinationStream;
  logLevel?: Config['logLevel'];
  /** Replacements for the apps features' seams (manifest reader, DNS resolver, dev slug suffixes). */
  apps?: ControlPlaneDeps['apps'];
  /** Replacements for the deliveries area's seams (hosted delivery target, mail transport, jitter). */
  deliveries?: ControlPlaneDeps['deliveries'];
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface ApiClient {
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
}

export interface CreatedWorkspace {
  workspace: { id: string; name: string };
  owner: { id: string; name: string; role: string };
  apiKey: string;
  client: ApiClient;
}

export interface Stack {
  url: string;
  /** The operator port's `/metrics` (never on the API port). */
  metricsUrl: string;
  db: Db;
  kv: Kv;
  /** The key prefix of this stack's keys in real Redis (null: the in-process store). */
  kvPrefix: string | null;
  clock: ManualClock;
  config: Config;
  logger: ControlPlaneDeps['logger'];
  controlPlane: ControlPlane;
  /** The OTLP export, when the env turned it on (benches flush it before reading their CPU figures). */
  telemetry: ControlPlaneTelemetry | null;
  /** Calls under `/client/v1` with `authorization: Bearer <apiKey>` when a key is given. */
  client(apiKey?: string): ApiClient;
  /** Calls under `/v0` with `authorization: Bearer <credential>` (any key or token) when one is given. */
  v0(credential?: string): ApiClient;
  /** Calls any path of the control plane. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  createWorkspace(input?: { name?: string; ownerName?: string }): Promise<CreatedWorkspace>;
  /** Adds a member through the API with an owner's or admin's key. */
  addMember(adminKey: string, input: { name?: string; role: 'owner' | 'admin' | 'member' }): Promise<{ member: { id: string; name: string; role: string }; apiKey: string; client: ApiClient }>;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const dbKind = options.db ?? (process.env.DATABASE_URL ? 'postgres' : 'pglite');
  const kvKind = options.kv ?? (process.env.REDIS_URL ? 'redis' : 'memory');
  const pgUrl = dbKind === 'postgres' ? postgresUrl() : null;
  const kvUrl = kvKind === 'redis' ? options.redisUrl ?? redisUrl() : null;
  if (dbKind === 'postgres' && pgUrl === null) throw new Error(`startStack({ db: "postgres" }): ${absentReason('postgres')}`);
  if (kvKind === 'redis' && kvUrl === null) throw new Error(`startStack({ kv: "redis" }): ${absentReason('redis')}`);

  const operatorToken = randomBytes(24).toString('base64url');
  // A directory of its own (bundles are stored under it), removed by stop().
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-test-'));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  let config: Config;
  try {
    config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      NODE_ENV: 'test',
      LOG_LEVEL: options.logLevel ?? (process.env.TEST_LOG_LEVEL as Config['logLevel'] | undefined) ?? 'silent',
      // Every generated secret is given, so no secret is written under DATA_DIR.
      DATA_DIR: dataDir,
      MASTER_KEY: randomBytes(32).toString('base64'),
      RUNTIME_SECRET: randomBytes(24).toString('base64url'),
      // No background delivery loops: suites drive them (`controlPlane.deliveries.worker.drain()`)
      // with the manual clock; a suite that wants them running sets OUTBOX_WORKERS.
      OUTBOX_WORKERS: '0',
      ...(pgUrl !== null ? { DATABASE_URL: pgUrl, OPERATOR_TOKEN: operatorToken } : {}),
      ...(kvUrl !== null ? { REDIS_URL: kvUrl } : {}),
      ...options.env,
    });
  } catch (err) {
    await removeDataDir();
    throw err;
  }
  // As boot.ts does: with OTEL_EXPORTER_OTLP_ENDPOINT set (a suite's `env`), the export is on.
  const telemetry = openTelemetry(config);
  const logger = createLogger(config, options.logStream, undefined, telemetry?.logStream);
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const cleanups: Array<() => Promise<void>> = [removeDataDir, async () => telemetry?.shutdown()];

  try {
    let db: Db;
    if (pgUrl !== null) {
      const fresh = await freshPgSchema(pgUrl);
      db = fresh.db;
      cleanups.push(fresh.drop);
    } else {
      db = await createPgliteDb();
      cleanups.push(() => db.close());
    }
    await migrate(db);

    let kv: Kv;
    let kvPrefix: string | null = null;
    if (kvUrl !== null) {
      const prefix = `test:${runId()}:`;
      kvPrefix = prefix;
      kv = await createRedisKv({ url: kvUrl, clock, prefix });
      cleanups.push(async () => {
        await kv.close();
        await dropRedisPrefix(kvUrl, prefix);
      });
    } else {
      kv = createMemoryKv({ clock });
      cleanups.push(() => kv.close());
    }

    const controlPlane = createControlPlane({
      config, logger, db, kv, clock, telemetry,
      ...(options.apps === undefined ? {} : { apps: options.apps }),
      ...(options.deliveries === undefined ? {} : { deliveries: options.deliveries }),
    });
    const { url, metricsUrl } = await controlPlane.start();
    cleanups.push(() => controlPlane.stop(1_000));

    const client = (apiKey?: string): ApiClient => apiClient(url, '/client/v1', apiKey);
    const stack: Stack = {
      url, metricsUrl, db, kv, kvPrefix, clock, config, logger, controlPlane, client, telemetry,
      v0: (credential) => apiClient(url, '/v0', credential),
      fetch: (path, init) => fetch(url + path, init),
      async createWorkspace(input = {}) {
        const headers: Record<string, string> = config.workspaceCreation === 'open' ? {} : { authorization: `Bearer ${config.operatorToken}` };
        const res = await client().request('POST', '/workspaces', {
          body: { name: input.name ?? 'Test workspace', owner: { name: input.ownerName ?? 'Olive Owner' } }, headers,
        });
        if (res.status !== 201) throw new Error(`createWorkspace answered ${res.status}: ${JSON.stringify(res.body)}`);
        return { ...res.body, client: client(res.body.apiKey) };
      },
      async addMember(adminKey, input) {
        const res = await client(adminKey).post('/members', { name: input.name ?? `Member ${runId()}`, role: input.role });
        if (res.status !== 201) throw new Error(`addMember answered ${res.status}: ${JSON.stringify(res.body)}`);
        return { ...res.body, client: client(res.body.apiKey) };
      },
      async stop() {
        for (const cleanup of cleanups.reverse()) await cleanup();
        cleanups.length = 0;
      },
    };
    return stack;
  } catch (err) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    throw err;
  }
}

export function apiClient(origin: string, base: string, apiKey?: string): ApiClient {
  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) };
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(origin + base + path, { method, headers: { ...headers, ...options.headers }, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    let parsed: unknown = null;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body === undefined ? {} : { body }),
    put: (path, body) => request('PUT', path, body === undefined ? {} : { body }),
    patch: (path, body) => request('PATCH', path, body === undefined ? {} : { body }),
    delete: (path) => request('DELETE', path),
  };
}
