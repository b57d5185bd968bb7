/**
 * Warm trivial requests through a runtime node, against workerd running the same handler and a
 * bare Node `http` server, on this machine in this one run, with the same closed-loop generator
 * (10 keep-alive connections): a hosted route request (`GET /apps/bench/`) and a signed delivery
 * (`POST /internal/v1/deliveries`, validated and run in the app's warm isolate under its CPU budget).
 * Also p50 latency at one connection. Targets: ≥ 1.0× workerd (the standing goal is 1.5×),
 * ≥ 0.35× bare Node, p50 ≤ 1.5× workerd's. Open-source workerd enforces no CPU limit at all
 * (its `NullIsolateLimitEnforcer`); the runtime enforces its budget on every request measured here.
 * workerd is installed on first use into .bench/workerd (`npm install --no-save`, outside the
 * project's own node_modules and lock, whose registries may lack its other-platform packages).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchRow, SECRET, percentile, requestsPerSecond, sequentialLatencies, sha256Hex, signedDelivery, spawnRuntime, startStubControlPlane } from './runtime-support.ts';

const HANDLER = 'export default { async fetch(request) { await request.text(); return new Response("ok"); } };\n';
const ENVELOPE = {
  id: 'dlv_bench', type: 'block.action', timestamp: '2026-01-01T00:00:00.000Z', app: { id: 'app_bench', slug: 'bench', version: 1 },
  install: { id: 'ins_1', workspaceId: 'wsp_1', kind: 'workspace' }, installToken: { token: 'platapp_x', expiresAt: '2026-01-01T01:00:00.000Z' },
  locale: 'en', timeZone: 'UTC', data: { block: { id: 'blk_1', type: 'counter', props: {}, state: { count: 1 }, revision: 1 }, action: { name: 'increment' } },
};
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKERD_DIR = join(ROOT, '.bench', 'workerd');
const WORKERD = [join(WORKERD_DIR, 'node_modules', '.bin', 'workerd'), join(ROOT, 'node_modules', '.bin', 'workerd')];

function workerdBinary(): string | null {
  const found = WORKERD.find((p) => existsSync(p));
  if (found !== undefined) return found;
  process.stdout.write('  installing workerd into .bench/workerd for the comparison …\n');
  const npm = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', WORKERD_DIR, 'workerd'], { stdio: 'ignore' });
  return npm.status === 0 && existsSync(WORKERD[0]!) ? WORKERD[0]! : null;
}

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

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

async function startWorkerd(binary: string): Promise<{ origin: string; stop: () => Promise<void> }> {
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
  const child = spawn(binary, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForPort(port);
  return { origin: `http://127.0.0.1:${port}`, stop: async () => { await stopChild(child); rmSync(dir, { recursive: true, force: true }); } };
}

async function startBareNode(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const code = `require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  await waitForPort(port);
  return { origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

interface Figures { rps: number; p50: number }

async function figures(origin: string, request: Parameters<typeof requestsPerSecond>[1]): Promise<Figures> {
  const rps = await requestsPerSecond(origin, request);
  const p50 = percentile(await sequentialLatencies(origin, request, 2_000), 50);
  return { rps, p50 };
}

export async function run(): Promise<BenchRow[]> {
  const body = JSON.stringify(ENVELOPE);
  const post = { method: 'POST' as const, path: '/platform', headers: { 'content-type': 'application/json' }, body };
  const bareServer = await startBareNode();
  const bare = await figures(bareServer.origin, post);
  await bareServer.stop();

  const binary = workerdBinary();
  let workerd: Figures | null = null;
  if (binary !== null) {
    const w = await startWorkerd(binary);
    workerd = await figures(w.origin, post);
    await w.stop();
  }

  const stub = await startStubControlPlane([{ slug: 'bench', source: HANDLER }]);
  const rt = await spawnRuntime({ CONTROL_PLANE_URL: stub.url, RUNTIME_DIRECTORY_TTL_MS: '3600000' });
  let route: Figures;
  let delivery: Figures;
  try {
    route = await figures(new URL(rt.url).origin, { method: 'GET', path: '/apps/bench/' });
    const request = JSON.stringify({
      app: { id: 'app_bench', slug: 'bench', version: 1 }, bundle: { sha256: sha256Hex(HANDLER) }, target: 'production', baseUrl: 'https://platform.example',
      installToken: 'platapp_x', ...signedDelivery(ENVELOPE),
    });
    delivery = await figures(new URL(rt.url).origin, { method: 'POST', path: '/internal/v1/deliveries', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: request });
  } finally {
    await rt.stop();
    await stub.close();
  }

  const vsWorkerd = (f: Figures, name: string): BenchRow[] => workerd === null
    ? [{ name: `${name} vs workerd: not measured (workerd could not be installed)`, value: 0, unit: '×', target: '≥ 1.0× workerd', ratio: null }]
    : [
      { name: `${name} vs workerd, 10 connections`, value: f.rps / workerd.rps, unit: '× workerd', target: '≥ 1.0× (goal 1.5×)', ratio: f.rps / workerd.rps },
      { name: `${name} p50 at 1 connection vs workerd's`, value: f.p50 / workerd.p50, unit: '× workerd', target: '≤ 1.5×', ratio: 1.5 / (f.p50 / workerd.p50) },
    ];
  return [
    { name: 'warm trivial route request, runtime node, 10 connections', value: route.rps, unit: 'req/s', target: 'info', ratio: null },
    ...vsWorkerd(route, 'route'),
    { name: 'route vs bare Node http echo', value: route.rps / bare.rps, unit: '× bare', target: '≥ 0.35× bare Node', ratio: route.rps / bare.rps / 0.35 },
    { name: 'warm signed delivery, runtime node, 10 connections', value: delivery.rps, unit: 'req/s', target: 'info', ratio: null },
    ...vsWorkerd(delivery, 'delivery'),
    { name: 'delivery vs bare Node http echo', value: delivery.rps / bare.rps, unit: '× bare', target: '≥ 0.35× bare Node', ratio: delivery.rps / bare.rps / 0.35 },
    { name: 'route / delivery p50 at 1 connection', value: route.p50, unit: `ms / ${delivery.p50.toFixed(3)} ms`, target: 'info', ratio: null },
    { name: 'same handler on workerd, 10 connections', value: workerd?.rps ?? 0, unit: `req/s (p50 ${workerd?.p50.toFixed(3) ?? '–'} ms)`, target: 'reference', ratio: null },
    { name: 'bare Node http echo, 10 connections', value: bare.rps, unit: `req/s (p50 ${bare.p50.toFixed(3)} ms)`, target: 'reference', ratio: null },
  ];
}
