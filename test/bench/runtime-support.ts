/**
 * Shared pieces of the runtime benchmarks (no `run()`: the bench runner skips this file): a runtime
 * node started as `npm start` starts it (runtime/src/main.ts in its own process), a closed-loop load
 * generator on keep-alive connections, and percentiles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createRuntimeClient, type RuntimeClient, type RuntimeDeliveryKind } from '@platform/runtime';
import { parseSigningSecret } from '@platform/sdk';

export const SECRET = 'bench-secret-0123456789abcdef';
/**
 * A load window's length and its warm-up (`BENCH_DURATION_MS`, `BENCH_WARMUP_MS`; 4 s and 1 s), and
 * the requests sent one at a time for latencies (`BENCH_LATENCY_COUNT`, 2,000): small values check
 * that a bench runs, the defaults give its figures.
 */
export const BENCH_DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4_000);
export const BENCH_WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1_000);
export const BENCH_LATENCY_COUNT = Number(process.env.BENCH_LATENCY_COUNT ?? 2_000);
/** Load windows per measured server (`BENCH_ROUNDS`, 3, as issue 24 measured); the median is the figure. */
export const BENCH_ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
export const SIGNING_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MAIN = fileURLToPath(new URL('../../runtime/src/main.ts', import.meta.url));

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ratio: number | null;
}

export interface RuntimeProcess {
  url: string;
  client: RuntimeClient;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A runtime node in its own process, as `npm start` runs it. */
export async function spawnRuntime(env: Record<string, string> = {}): Promise<RuntimeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'runtime-bench-'));
  const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', MAIN], {
    // LOG_LEVEL stays at info whatever the caller asks: the node's address arrives as an info line.
    env: { PATH: process.env.PATH, RUNTIME_SECRET: SECRET, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_DATA_DIR: dataDir, ...env, LOG_LEVEL: process.env.BENCH_DEBUG ? 'debug' : 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`runtime exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (process.env.BENCH_DEBUG) console.error('RT', performance.now().toFixed(0), line.slice(0, 300));
      try {
        const entry = JSON.parse(line) as { url?: string };
        if (entry.url !== undefined) resolve(entry.url);
      } catch {
        // not a log line
      }
    });
  });
  return {
    url,
    child,
    client: createRuntimeClient({ url, secret: SECRET }),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Requests per second with `connections` keep-alive connections, each sending its next request as
 * soon as the previous answer is read (closed loop), after a warm-up.
 */
export async function requestsPerSecond(origin: string, request: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string },
  options: { connections?: number; warmupMs?: number; durationMs?: number; window?: { start(): void; end(requests: number): void } } = {}): Promise<number> {
  const connections = options.connections ?? 10;
  const pool = new Pool(origin, { connections, pipelining: 1 });
  let counting = false;
  let done = 0;
  let stop = false;
  let failures = 0;
  const worker = async (): Promise<void> => {
    while (!stop) {
      const res = await pool.request({ method: request.method, path: request.path, headers: request.headers, body: request.body });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) failures++;
      if (counting) done++;
    }
  };
  const workers = Array.from({ length: connections }, worker);
  await new Promise((r) => setTimeout(r, options.warmupMs ?? BENCH_WARMUP_MS));
  options.window?.start();
  counting = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, options.durationMs ?? BENCH_DURATION_MS));
  counting = false;
  const elapsed = performance.now() - started;
  options.window?.end(done);
  stop = true;
  await Promise.all(workers);
  await pool.close();
  if (failures > 0) throw new Error(`${failures} requests failed during the load test of ${origin}${request.path}`);
  return (done / elapsed) * 1000;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The signed part of a delivery request as the control plane builds it: the envelope's bytes and
 * its Standard Webhooks headers (signed with SIGNING_SECRET); kind `mcp` carries the message unsigned.
 */
export function signedDelivery(envelope: Record<string, unknown>, kind: RuntimeDeliveryKind = 'interactive'): { kind: RuntimeDeliveryKind; headers: Record<string, string>; body: string } {
  const { installToken: _token, ...rest } = envelope;
  const body = JSON.stringify(kind === 'mcp' ? envelope : rest);
  if (kind === 'mcp') return { kind, headers: {}, body };
  const id = String(envelope.id);
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', parseSigningSecret(SIGNING_SECRET)!).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    kind, body,
    headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}`, 'platform-delivery': kind === 'lifecycle' ? 'lifecycle' : 'interactive', 'platform-install': 'ins_1', 'content-type': 'application/json' },
  };
}

export interface StubApp {
  slug: string;
  source: string;
  env?: Record<string, string>;
}

/**
 * The part of a control plane a runtime node asks for ingress: app records by slug and bundles by
 * sha256, from memory. Start the node with CONTROL_PLANE_URL set to `url` (and a long
 * RUNTIME_DIRECTORY_TTL_MS, so the stub is asked once per app).
 */
export async function startStubControlPlane(apps: StubApp[]): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const bundles = new Map(apps.map((a) => [sha256Hex(a.source), a.source]));
  const records = new Map(apps.map((a) => [a.slug, { appId: `app_${a.slug}`, slug: a.slug, version: 1, sha256: sha256Hex(a.source), env: a.env ?? {}, secretEnvKeys: [], egressHosts: [], baseUrl: 'https://platform.example' }]));
  const server = createServer((req, res) => {
    const app = /^\/internal\/v1\/apps\/([^/]+)\/production$/.exec(req.url ?? '');
    const bundle = /^\/internal\/v1\/bundles\/([0-9a-f]{64})$/.exec(req.url ?? '');
    const record = app === null ? undefined : records.get(decodeURIComponent(app[1]!));
    const source = bundle === null ? undefined : bundles.get(bundle[1]!);
    if (record !== undefined) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record));
    if (source !== undefined) return void res.writeHead(200, { 'content-type': 'application/javascript' }).end(source);
    // App log batches are taken and dropped, as a control plane takes them (the node ships every request's line).
    if (req.method === 'POST' && req.url === '/internal/v1/logs') return void req.resume().on('end', () => res.writeHead(204).end());
    // Usage counts likewise (one small batch a second).
    if (req.method === 'POST' && req.url === '/internal/v1/usage') return void req.resume().on('end', () => res.writeHead(204).end());
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) };
}

/** Latencies (ms) of `count` requests sent one at a time, after `warmup` unmeasured ones. */
export async function sequentialLatencies(origin: string, request: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }, count: number, warmup = 200): Promise<number[]> {
  const pool = new Pool(origin, { connections: 1, pipelining: 1 });
  const out: number[] = [];
  try {
    for (let i = 0; i < warmup + count; i++) {
      const started = performance.now();
      const res = await pool.request({ method: request.method, path: request.path, headers: request.headers, body: request.body });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`${origin}${request.path} answered ${res.statusCode}`);
      if (i >= warmup) out.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return out;
}
