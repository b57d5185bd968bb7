/**
 * A fleet on loopback for tests: control planes and runtime nodes as real processes (the same entry
 * points operators run), each on a reserved port, waited for on `/readyz`, stopped or killed by the
 * test. Every process started is stopped by `stopAll`.
 *
 *   const fleet = createFleet({ shared: { DATABASE_URL, REDIS_URL, REDIS_PREFIX, ... } });
 *   const cp = await fleet.controlPlane('cp-1', { PUBLIC_URL: lb.url });
 *   const node = await fleet.runtimeNode('node-a', { CONTROL_PLANE_URL: lb.url });
 *   process.kill(node.pid, 'SIGKILL');
 *   await fleet.stopAll();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTROL_PLANE = fileURLToPath(new URL('../../control-plane/src/main.ts', import.meta.url));
const RUNTIME = fileURLToPath(new URL('../../runtime/src/main.ts', import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface FleetProcess {
  name: string;
  url: string;
  port: number;
  pid: number;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last 50 KB it wrote (its log lines; for a failed test's message). */
  output(): string;
}

export interface Fleet {
  controlPlane(name: string, env: Record<string, string>, port?: number): Promise<FleetProcess>;
  runtimeNode(name: string, env: Record<string, string>, port?: number): Promise<FleetProcess>;
  stopAll(): Promise<void>;
}

/** Polls `{url}/readyz` until it answers 200 (a process starting up has no event to wait on). */
async function untilReady(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url} exited before it was ready`);
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) }).then(async (r) => {
      await r.body?.cancel();
      return r.ok;
    }, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} was not ready within ${deadlineMs} ms`);
}

export function createFleet(options: { shared: Record<string, string> }): Fleet {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];

  const start = async (name: string, entry: string, env: Record<string, string>, port: number, portVar: string): Promise<FleetProcess> => {
    const dataDir = mkdtempSync(join(tmpdir(), `fleet-${name}-`));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', entry], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...options.shared, DATA_DIR: dataDir, RUNTIME_DATA_DIR: join(dataDir, 'runtime'), [portVar]: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-50_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const url = `http://127.0.0.1:${port}`;
    try {
      await untilReady(url, child, 60_000);
    } catch (err) {
      throw new Error(`${name}: ${(err as Error).message}\n${output}`);
    }
    return { name, url, port, pid: child.pid!, exited, output: () => output };
  };

  return {
    async controlPlane(name, env, port) {
      return start(name, CONTROL_PLANE, { HOST: '127.0.0.1', METRICS_PORT: '0', ...env }, port ?? await freePort(), 'PORT');
    },
    async runtimeNode(name, env, port) {
      return start(name, RUNTIME, { RUNTIME_HOST: '127.0.0.1', RUNTIME_METRICS_PORT: '0', RUNTIME_NODE_ID: name, ...env }, port ?? await freePort(), 'RUNTIME_PORT');
    },
    async stopAll() {
      await Promise.all(children.map((child) => new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      })));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
