/**
 * Shared pieces of the runtime benchmarks (no `run()`: the bench runner skips this file): a runtime
 * node started as `npm start` starts it (runtime/src/main.ts in its own process), a closed-loop load
 * generator on keep-alive connections, and percentiles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createRuntimeClient, type RuntimeClient } from '@platform/runtime';

export const SECRET = 'bench-secret-0123456789abcdef';
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
    env: { PATH: process.env.PATH, RUNTIME_SECRET: SECRET, RUNTIME_PORT: '0', RUNTIME_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`runtime exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
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
  options: { connections?: number; warmupMs?: number; durationMs?: number } = {}): Promise<number> {
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
  await new Promise((r) => setTimeout(r, options.warmupMs ?? 1_000));
  counting = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, options.durationMs ?? 4_000));
  counting = false;
  const elapsed = performance.now() - started;
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
