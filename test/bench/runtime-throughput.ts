/**
 * Warm trivial delivery through a runtime node (10 connections): requests per second of
 * `POST /internal/v1/deliveries` (validated, signed, run in a warm isolate, answered), against the
 * same handler on workerd (the npm package's binary) and against a bare Node `http` server, each in
 * its own process, measured in this one run by the same closed-loop generator. Targets: ≥ 1.5×
 * workerd, ≥ 50 % of bare Node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIGNING_SECRET, SECRET, requestsPerSecond, sha256Hex, spawnRuntime, type BenchRow } from './runtime-support.ts';

const HANDLER = 'export default { async fetch(request) { await request.text(); return new Response("ok"); } };\n';
const ENVELOPE = {
  id: 'dlv_bench', type: 'block.action', timestamp: '2026-01-01T00:00:00.000Z', app: { id: 'app_bench', slug: 'bench', version: 1 },
  install: { id: 'ins_1', workspaceId: 'wsp_1', kind: 'workspace' }, installToken: { token: 'platapp_x', expiresAt: '2026-01-01T01:00:00.000Z' },
  locale: 'en', timeZone: 'UTC', data: { block: { id: 'blk_1', type: 'counter', props: {}, state: { count: 1 }, revision: 1 }, action: { name: 'increment' } },
};
const WORKERD = fileURLToPath(new URL('../../node_modules/.bin/workerd', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`nothing listens on ${port}`);
}

async function startWorkerd(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'workerd-bench-'));
  const port = await freePort();
  writeFileSync(join(dir, 'worker.mjs'), HANDLER);
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],
  compatibilityDate = "2024-09-23",
);
`);
  const child: ChildProcess = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForPort(port);
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startBareNode(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const code = `require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  await waitForPort(port);
  return { origin: `http://127.0.0.1:${port}`, stop: async () => { child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r)); } };
}

export async function run(): Promise<BenchRow[]> {
  const body = JSON.stringify(ENVELOPE);
  const bare = await startBareNode();
  const bareRps = await requestsPerSecond(bare.origin, { method: 'POST', path: '/platform', headers: { 'content-type': 'application/json' }, body });
  await bare.stop();

  // workerd is not a dependency of the project (its lock entries break `npm ci` on registries
  // without its other-platform packages): install it to compare, `npm install --no-save workerd`.
  let workerdRps: number | null = null;
  if (existsSync(WORKERD)) {
    const workerd = await startWorkerd();
    workerdRps = await requestsPerSecond(workerd.origin, { method: 'POST', path: '/platform', headers: { 'content-type': 'application/json' }, body });
    await workerd.stop();
  }

  const rt = await spawnRuntime({ RUNTIME_WORKERS: '1' });
  const sha = sha256Hex(HANDLER);
  await rt.client.putBundle(sha, new TextEncoder().encode(HANDLER));
  const delivery = JSON.stringify({
    app: { id: 'app_bench', slug: 'bench', version: 1 }, bundle: { sha256: sha }, target: 'production', baseUrl: 'https://platform.example',
    signingSecret: SIGNING_SECRET, kind: 'interactive', envelope: ENVELOPE,
  });
  const runtimeRps = await requestsPerSecond(new URL(rt.url).origin, { method: 'POST', path: '/internal/v1/deliveries', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: delivery });
  await rt.stop();

  return [
    { name: 'warm trivial delivery, runtime node (1 worker), 10 connections', value: runtimeRps, unit: 'req/s', target: '≥ 1.5× workerd', ratio: workerdRps === null ? null : runtimeRps / (1.5 * workerdRps) },
    { name: workerdRps === null ? 'same handler on workerd: not installed (npm install --no-save workerd)' : 'same handler on workerd, 10 connections', value: workerdRps ?? 0, unit: 'req/s', target: 'reference', ratio: null },
    { name: 'runtime node vs bare Node http echo', value: runtimeRps / bareRps, unit: '× bare', target: '≥ 0.5× bare Node', ratio: runtimeRps / bareRps / 0.5 },
    { name: 'bare Node http echo, 10 connections', value: bareRps, unit: 'req/s', target: 'reference', ratio: null },
  ];
}
