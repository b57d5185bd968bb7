/**
 * Warm trivial requests through a runtime node, against workerd running the same handler and a
 * bare Node `http` server, on this machine in this one run, with the same closed-loop generator
 * (10 keep-alive connections): a hosted route request (`GET /apps/bench/`) and a signed delivery
 * (`POST /internal/v1/deliveries`, validated and run in the app's warm isolate under its CPU budget).
 * Also p50 latency at one connection. The runtime rows come in two forms: the node as `npm start`
 * runs it (control-plane/src/main-all.ts: a real control plane with its database, the runtime node
 * its child, app logs shipped to it, metrics on; the app uploaded through the public API) and the
 * node alone beside a stub control plane (the earlier form). Each row set says the machine's load
 * average before it and the CPU each process spent per request. Targets (issue 24): ≥ 1.5× workerd,
 * ≥ 0.5× bare Node, p50 ≤ 1.0× workerd's. Open-source workerd enforces no CPU limit at all (its
 * `NullIsolateLimitEnforcer`); the runtime enforces its budget on every request measured here.
 * workerd is installed on first use into .bench/workerd (`npm install --no-save`, outside the
 * project's own node_modules and lock, whose registries may lack its other-platform packages).
 * `BENCH_ROUNDS` (3: the median is the figure), `BENCH_DURATION_MS`, `BENCH_WARMUP_MS` and
 * `BENCH_LATENCY_COUNT` shorten it (runtime-support.ts); `BENCH_RUNTIME_FORMS=stub` leaves out the
 * `npm start` form. The route is measured a third time with connection hand-off
 * (`RUNTIME_HANDOFF=ingress`: each connection handed once to a worker, which parses its requests).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPlatform } from '../helpers/npm-start.ts';
import { cpuRows, cpuWindow, loadNow, loadRow, type CpuWindow } from './runtime-process-cpu.ts';
import { BENCH_LATENCY_COUNT, BENCH_ROUNDS, type BenchRow, SECRET, percentile, requestsPerSecond, sequentialLatencies, sha256Hex, signedDelivery, spawnRuntime, startStubControlPlane } from './runtime-support.ts';

const HANDLER = 'export default { async fetch(request) { await request.text(); return new Response("ok"); } };\n';
/** The same handler as an app uploads it (a version needs its manifest). */
const HOSTED = 'export default { manifest: { schemaVersion: 1, name: "Bench", slug: "bench" }, async fetch(request) { await request.text(); return new Response("ok"); } };\n';
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

interface Server { origin: string; pid: number; stop: () => Promise<void> }

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

async function startWorkerd(binary: string): Promise<Server> {
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
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid!, stop: async () => { await stopChild(child); rmSync(dir, { recursive: true, force: true }); } };
}

async function startBareNode(): Promise<Server> {
  const port = await freePort();
  const code = `require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  await waitForPort(port);
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

interface Figures { rps: number; rounds: number[]; p50: number; loadBefore: number; cpu: Array<{ label: string; usPerRequest: number }> }

type Request = Parameters<typeof requestsPerSecond>[1];

/**
 * Requests per second (the median of BENCH_ROUNDS windows, each after its warm-up) and p50 against
 * `origin`, with the CPU of the process tree of `pid` per request in the median window.
 */
async function figures(origin: string, request: Request, pid: number): Promise<Figures> {
  // One request first: the app's directory record, bundle and first isolate are not what a warm row measures.
  const primed = await fetch(`${origin}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  if (primed.status !== 200) throw new Error(`${origin}${request.path} answered ${primed.status}: ${(await primed.text()).slice(0, 300)}`);
  await primed.arrayBuffer();
  const loadBefore = loadNow();
  const rounds: Array<{ rps: number; cpu: Figures['cpu'] }> = [];
  for (let r = 0; r < BENCH_ROUNDS; r++) {
    let window: CpuWindow | null = null;
    let cpu: Figures['cpu'] = [];
    const rps = await requestsPerSecond(origin, request, { window: { start: () => (window = cpuWindow(pid)), end: (n) => (cpu = window!.end(n)) } });
    rounds.push({ rps, cpu });
  }
  const median = [...rounds].sort((a, b) => a.rps - b.rps)[rounds.length >> 1]!;
  const p50 = percentile(await sequentialLatencies(origin, request, BENCH_LATENCY_COUNT, Math.min(200, BENCH_LATENCY_COUNT)), 50);
  return { rps: median.rps, rounds: rounds.map((x) => x.rps), p50, loadBefore, cpu: median.cpu };
}

const roundsText = (f: Figures): string => (f.rounds.length > 1 ? `; rounds ${f.rounds.map((r) => r.toFixed(0)).join(', ')}` : '');

async function measured(start: () => Promise<Server>, request: Request): Promise<Figures> {
  const server = await start();
  try {
    return await figures(server.origin, request, server.pid);
  } finally {
    await server.stop();
  }
}

/** A delivery request to the internal API as the control plane sends it. */
function deliveryRequest(appId: string, source: string): Request {
  const request = JSON.stringify({
    app: { id: appId, slug: 'bench', version: 1 }, bundle: { sha256: sha256Hex(source) }, target: 'production', baseUrl: 'https://platform.example',
    installToken: 'platapp_x', ...signedDelivery({ ...ENVELOPE, app: { ...ENVELOPE.app, id: appId } }),
  });
  return { method: 'POST', path: '/internal/v1/deliveries', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: request };
}

interface Form { route: Figures; delivery: Figures }

/**
 * The runtime node alone, beside a stub control plane that answers app records and takes log
 * batches; with `RUNTIME_HANDOFF=ingress` only the route is measured (deliveries are not handed).
 */
async function stubForm(env: Record<string, string> = {}): Promise<Partial<Form> & Pick<Form, 'route'>> {
  const stub = await startStubControlPlane([{ slug: 'bench', source: HANDLER }]);
  const rt = await spawnRuntime({ CONTROL_PLANE_URL: stub.url, RUNTIME_DIRECTORY_TTL_MS: '3600000', ...env });
  try {
    const origin = new URL(rt.url).origin;
    const route = await figures(origin, { method: 'GET', path: '/apps/bench/' }, rt.child.pid!);
    if (env.RUNTIME_HANDOFF !== undefined) return { route };
    return { route, delivery: await figures(origin, deliveryRequest('app_bench', HANDLER), rt.child.pid!) };
  } finally {
    await rt.stop();
    await stub.close();
  }
}

async function call(url: string, method: string, auth: string, body: string, type: string): Promise<any> {
  const res = await fetch(url, { method, headers: { authorization: auth, 'content-type': type }, body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** `npm start` as a user runs it; the app created and its version uploaded through the public API. */
async function npmStartForm(): Promise<Form> {
  const platform = await startPlatform({ env: { RUNTIME_SECRET: SECRET, LOG_LEVEL: 'warn' } });
  try {
    const owner = `Bearer ${platform.credentials.owner.apiKey}`;
    const created = await call(`${platform.url}/client/v1/apps`, 'POST', owner, JSON.stringify({ name: 'Bench', slug: 'bench', hosting: 'platform' }), 'application/json');
    const appId = created.app.id as string;
    await call(`${platform.url}/v0/apps/${appId}/versions?target=production`, 'POST', owner, HOSTED, 'application/javascript');
    const origin = new URL(platform.runtimeUrl).origin;
    return {
      route: await figures(origin, { method: 'GET', path: '/apps/bench/' }, platform.pid),
      delivery: await figures(origin, deliveryRequest(appId, HOSTED), platform.pid),
    };
  } finally {
    await platform.stop();
  }
}

function formRows(form: string, f: Figures, row: string, workerd: Figures | null, bare: Figures): BenchRow[] {
  const name = `${row} (${form})`;
  return [
    loadRow(name, f.loadBefore),
    { name: `warm trivial ${name}, 10 connections`, value: f.rps, unit: `req/s (p50 ${f.p50.toFixed(3)} ms${roundsText(f)})`, target: 'info', ratio: null },
    ...(workerd === null
      ? [{ name: `${name} vs workerd: not measured (workerd could not be installed)`, value: 0, unit: '×', target: '≥ 1.5× workerd', ratio: null }]
      : [
        { name: `${name} vs workerd, 10 connections`, value: f.rps / workerd.rps, unit: '× workerd', target: '≥ 1.5×', ratio: f.rps / workerd.rps / 1.5 },
        { name: `${name} p50 at 1 connection vs workerd's`, value: f.p50 / workerd.p50, unit: '× workerd', target: '≤ 1.0×', ratio: 1 / (f.p50 / workerd.p50) },
      ]),
    { name: `${name} vs bare Node http echo`, value: f.rps / bare.rps, unit: '× bare', target: '≥ 0.5× bare Node', ratio: f.rps / bare.rps / 0.5 },
    ...cpuRows(name, f.cpu),
  ];
}

function referenceRows(name: string, f: Figures): BenchRow[] {
  return [
    loadRow(name, f.loadBefore),
    { name: `${name}, 10 connections`, value: f.rps, unit: `req/s (p50 ${f.p50.toFixed(3)} ms${roundsText(f)})`, target: 'reference', ratio: null },
    ...cpuRows(name, f.cpu),
  ];
}

export async function run(): Promise<BenchRow[]> {
  const post: Request = { method: 'POST', path: '/platform', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ENVELOPE) };
  const bare = await measured(startBareNode, post);
  const binary = workerdBinary();
  const workerd = binary === null ? null : await measured(() => startWorkerd(binary), post);
  const started = process.env.BENCH_RUNTIME_FORMS === 'stub' ? null : await npmStartForm();
  const stub = await stubForm();
  const handoff = await stubForm({ RUNTIME_HANDOFF: 'ingress' });
  return [
    ...(started === null ? [] : [...formRows('npm start', started.route, 'route', workerd, bare), ...formRows('npm start', started.delivery, 'delivery', workerd, bare)]),
    ...formRows('stub control plane', stub.route, 'route', workerd, bare),
    ...formRows('stub control plane', stub.delivery!, 'delivery', workerd, bare),
    ...formRows('stub control plane, RUNTIME_HANDOFF=ingress', handoff.route, 'route', workerd, bare),
    ...(workerd === null ? [] : referenceRows('same handler on workerd', workerd)),
    ...referenceRows('bare Node http echo', bare),
  ];
}
