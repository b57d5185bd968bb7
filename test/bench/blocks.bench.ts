/**
 * Benchmark of member clicks end to end (issue 7): client API → control plane → app → result
 * applied, with real Postgres (DATABASE_URL, default the local test database; a fresh database)
 * and Redis when REDIS_URL is set. The app is the board fixture (test/fixtures/blocks), written
 * with the authoring API: hosted (bundled with esbuild, run by a runtime node in an isolate) and,
 * beside it, self-hosted (a Node process of its own). Every click is a `block.action` whose answer
 * carries a new state and tree, checked against the state schema and the catalog and written; its
 * HTTP answer is the member's new view.
 *
 * Topology, as deployed (printed first): this process is only the load generator; the control
 * plane (`control-plane/src/main.ts`), the runtime node (`runtime/src/main.ts`, its default worker
 * count unless RUNTIME_WORKERS is set) and the self-hosted app each run as a process of their own,
 * logging at `info` like production. BENCH_NODE_FLAGS adds node flags to the server processes and
 * the self-hosted app (`--cpu-prof --cpu-prof-dir=…` profiles them); BENCH_CLICKS=hosted or
 * self-hosted runs one of the two apps only.
 *
 * Figures per app: clicks per second with 16 clicks in flight, click latency p50 one at a time and
 * in flight, and the same run's bare figure: the same `block.action` sent straight to the runtime
 * node (hosted) or to the app (self-hosted), without the control plane. Targets (issue 24), ratios
 * within one run since this machine's speed moves from day to day: self-hosted clicks/s ≥ 10 % of
 * the self-hosted app alone's rate, hosted ≥ 8 % of it; p50 one at a time ≤ 3 ms self-hosted,
 * ≤ 3.5 ms hosted. Printed before the table: the machine's load average before each phase, the CPU
 * each process spent per click (from /proc, so Linux only), what other processes used meanwhile
 * and the hypervisor's steal, which tell a disturbed run from a slow one. Run by `npm run bench` (test/bench/run.ts); a plain script, no vitest.
 */
import { build } from 'esbuild';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createRuntimeClient } from '@platform/runtime';
import { deliveryHeadersSync } from '@platform/sdk/node';
import {
  agent, boardActionEnvelope, call, childPids, cpuMs, install, load, machineCpuMs, must, percentile, startPlatform, startSelfHostedBoard, workspace,
  type BenchPlatform, type InstalledApp, type Workspace,
} from '../fixtures/blocks/bench-support.ts';

interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ratio: number | null;
}

/** Clicks/s as a share of the self-hosted app alone's actions/s in the same run (issue 24). */
const TARGET_SELF_SHARE = 0.10;
/** Hosted clicks also cross the runtime node: a lower share of the same rate. */
const TARGET_HOSTED_SHARE = 0.08;
const TARGET_SELF_P50_MS = 3;
const TARGET_HOSTED_P50_MS = 3.5;
const IN_FLIGHT = 16;
const BLOCKS = 64;
const THROUGHPUT_MS = 5_000;
const SERIAL = 400;
const WARMUP = 400;

/** Whose CPU a click costs: the servers, Postgres, and this process (the load generator); a role counts its processes' children unless `alone`. */
type Roles = Record<string, { pids: () => Promise<number[]>; alone?: boolean }>;

/** `phase`'s CPU per call, by role, in ms: what each process spent while it ran, over the calls it made. */
interface Measured {
  /** CPU per call by role, ms. */
  cpu: Record<string, number>;
  /** Other processes' CPU per call (ms) and the share of CPU time stolen by the hypervisor while the phase ran. */
  disturbance: { others: number; stealPercent: number };
}

async function measured<T extends { latencies: number[] }>(roles: Roles, phase: () => Promise<T>): Promise<T & Measured> {
  const pids = Object.fromEntries(await Promise.all(Object.entries(roles).map(async ([role, r]) => [role, await r.pids()] as const)));
  const used = async (role: string) => cpuMs(pids[role]!, { descendants: roles[role]!.alone !== true });
  const before = Object.fromEntries(await Promise.all(Object.keys(pids).map(async (role) => [role, await used(role)] as const)));
  const self = process.cpuUsage();
  const machine = await machineCpuMs();
  const started = performance.now();
  const result = await phase();
  const mine = process.cpuUsage(self);
  const elapsed = performance.now() - started;
  const machineAfter = await machineCpuMs();
  const n = result.latencies.length;
  const cpu: Record<string, number> = {};
  for (const role of Object.keys(pids)) cpu[role] = ((await used(role)) - before[role]!) / n;
  cpu['load generator'] = (mine.user + mine.system) / 1000 / n;
  const ours = Object.values(cpu).reduce((a, b) => a + b, 0) * n;
  // What else ran meanwhile (other work on the machine, Postgres's own background processes) and
  // what the hypervisor took: a run with much of either is disturbed.
  const disturbance = { others: Math.max(0, machineAfter.busy - machine.busy - ours) / n, stealPercent: (100 * (machineAfter.steal - machine.steal)) / (elapsed * availableParallelism()) };
  return { ...result, cpu, disturbance };
}

/** The machine's load average (1, 5, 15 minutes) now: a figure taken on a loaded machine says so. */
const loadLine = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`;

/**
 * One phase's CPU per click. When other processes used more CPU meanwhile than the click's own
 * processes, the line says so: that phase's rates, latencies and ratios describe the neighbours
 * more than the code, and only the CPU per click compares across runs (and even it inflates
 * under contention).
 */
const cpuLine = (label: string, m: Measured) => {
  const total = Object.values(m.cpu).reduce((a, b) => a + b, 0);
  const disturbed = m.disturbance.others > total ? `; DISTURBED (others ${(m.disturbance.others / total).toFixed(1)}× this phase's own CPU)` : '';
  return `  ${label}: CPU per click ${Object.entries(m.cpu).map(([role, ms]) => `${role} ${ms.toFixed(2)} ms`).join(', ')}; `
    + `total ${total.toFixed(2)} ms (meanwhile other processes ${m.disturbance.others.toFixed(2)} ms per click, steal ${m.disturbance.stealPercent.toFixed(0)}%${disturbed})\n`;
};

/** Clicks "Add one" on the app's blocks; each lane owns its blocks, so its revision is always current. */
async function clicks(p: BenchPlatform, ws: Workspace, app: InstalledApp, roles: Roles, label: string) {
  const blocks: Array<{ id: string; revision: number; ref: string }> = [];
  for (let i = 0; i < BLOCKS; i++) {
    const block = await must('POST', `${p.url}/v0/blocks`, { type: 'board', props: { title: `B${i}` }, circleId: ws.circleId }, `Bearer ${app.token}`, 201);
    const shown = (await must('GET', `${p.url}/client/v1/blocks/${block.id}`, undefined, ws.key, 200)).block;
    const ref = JSON.stringify(shown.tree).match(/"label":"Add one","action":\{"ref":"(a\d+)"\}/)?.[1];
    if (ref === undefined) throw new Error('no "Add one" button in the board tree');
    blocks.push({ id: block.id, revision: shown.revision, ref });
  }
  const turns = Array.from({ length: IN_FLIGHT }, () => 0);
  const click = (lanes: number) => async (lane: number) => {
    const perLane = BLOCKS / lanes;
    const block = blocks[lane * perLane + (turns[lane]!++ % perLane)]!;
    const res = await call('POST', `${p.url}/client/v1/blocks/${block.id}/click`, { revision: block.revision, ref: block.ref }, ws.key);
    if (res.status !== 200 || res.body.outcome !== 'applied') throw new Error(`click answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    block.revision = res.body.block.revision;
  };
  await load(IN_FLIGHT, { count: WARMUP }, click(IN_FLIGHT));
  const serialLoad = loadLine();
  const serial = await measured(roles, () => load(1, { count: SERIAL }, click(1)));
  const busyLoad = loadLine();
  const busy = await measured(roles, () => load(IN_FLIGHT, { ms: THROUGHPUT_MS }, click(IN_FLIGHT)));
  process.stdout.write(cpuLine(`${label}, one at a time (${serialLoad})`, serial) + cpuLine(`${label}, ${IN_FLIGHT} in flight (${busyLoad})`, busy));
  const sample = await must('GET', `${p.url}/v0/blocks/${blocks[0]!.id}`, undefined, `Bearer ${app.token}`, 200);
  return { serial, busy, sample };
}

/** The same action without the control plane, at the same concurrency. */
async function bare(send: () => Promise<void>, roles: Roles, label: string) {
  await load(IN_FLIGHT, { count: WARMUP }, send);
  const serial = await load(1, { count: SERIAL }, send);
  const busyLoad = loadLine();
  const busy = await measured(roles, () => load(IN_FLIGHT, { ms: THROUGHPUT_MS }, send));
  process.stdout.write(cpuLine(`${label}, ${IN_FLIGHT} in flight (${busyLoad})`, busy).replace('per click', 'per action'));
  return { serial, busy };
}

type ClickRun = { serial: { latencies: number[] }; busy: { latencies: number[]; perSecond: number } };
type BareRun = Awaited<ReturnType<typeof bare>>;

/**
 * `appAlone`: the self-hosted app's own actions/s in this run, the yardstick of both click rows
 * (issue 24); when only the hosted app runs, the bare runtime's rate stands in, and the row says so.
 */
function rows(label: string, bareLabel: string, t: { share: number; p50Ms: number }, e2e: ClickRun, b: BareRun, appAlone: { perSecond: number; name: string }): BenchRow[] {
  const p50 = percentile(e2e.serial.latencies, 0.5);
  const busyP50 = percentile(e2e.busy.latencies, 0.5);
  const share = e2e.busy.perSecond / appAlone.perSecond;
  return [
    { name: `${label}: clicks/s end to end (${IN_FLIGHT} in flight)`, value: e2e.busy.perSecond, unit: 'clicks/s', target: '–', ratio: null },
    {
      name: `${label}: clicks/s as a share of ${appAlone.name} (${Math.round(appAlone.perSecond)}/s)`, value: 100 * share, unit: '%',
      target: `≥ ${100 * t.share} %`, ratio: share / t.share,
    },
    { name: `${label}: click p50 (one at a time)`, value: p50, unit: 'ms', target: `≤ ${t.p50Ms} ms`, ratio: t.p50Ms / p50 },
    { name: `${label}: click p99 (one at a time)`, value: percentile(e2e.serial.latencies, 0.99), unit: 'ms', target: '–', ratio: null },
    { name: `${label}: click p50 (${IN_FLIGHT} in flight)`, value: busyP50, unit: 'ms', target: '–', ratio: null },
    { name: `${bareLabel} (same run): actions/s (${IN_FLIGHT} in flight)`, value: b.busy.perSecond, unit: 'actions/s', target: '–', ratio: null },
    { name: `${bareLabel} (same run): p50 (one at a time)`, value: percentile(b.serial.latencies, 0.5), unit: 'ms', target: '–', ratio: null },
  ];
}

const only = process.env.BENCH_CLICKS;
const servers = (p: BenchPlatform): Roles => ({ 'control plane': { pids: async () => [p.pids.controlPlane] }, postgres: { pids: () => p.postgresPids() } });

/** Hosted: bundled as `platform deploy` does, uploaded, run by the runtime node. */
async function hostedRun(p: BenchPlatform, ws: Workspace): Promise<{ run: ClickRun; bare: BareRun }> {
  const hostedApp = await must('POST', `${p.url}/client/v1/apps`, { name: 'Hosted board', slug: 'hosted-board', hosting: 'platform' }, ws.key, 201);
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/blocks/hosted-board.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await must('POST', `${p.url}/v0/apps/${hostedApp.app.id}/versions?target=production`, undefined, ws.key, 200, bundled.outputFiles[0]!.contents);
  const hosted = await install(p, ws, hostedApp);
  const runtimeNode: Roles = {
    'runtime supervisor': { pids: async () => [p.pids.runtime], alone: true }, 'runtime workers': { pids: () => childPids(p.pids.runtime) },
  };
  const hostedRun = await clicks(p, ws, hosted, { ...servers(p), ...runtimeNode }, 'hosted');
  const runtime = createRuntimeClient({ url: p.runtimeUrl, secret: p.runtimeSecret });
  const hostedBare = await bare(async () => {
    const envelope = boardActionEnvelope({ ...hosted, workspaceId: ws.workspaceId, memberId: ws.memberId, block: hostedRun.sample });
    const body = JSON.stringify(envelope);
    const headers = deliveryHeadersSync({ id: envelope.id, timestamp: Math.floor(Date.now() / 1000), body, secrets: [hosted.signingSecret], deliveryClass: 'interactive', installId: hosted.installId });
    const result = await runtime.deliver({
      app: { id: hosted.appId, slug: hosted.slug, version: 1 }, bundle: { sha256: uploaded.bundle.sha256 }, target: 'production', baseUrl: p.url,
      kind: 'interactive', headers, body,
    });
    if (result.outcome !== 'ok' || result.status !== 200) throw new Error(`the runtime answered ${result.outcome} ${result.status}`);
  }, runtimeNode, 'bare runtime');
  return { run: hostedRun, bare: hostedBare };
}

/** Self-hosted: the same block from a Node process on loopback. */
async function selfHostedRun(p: BenchPlatform, ws: Workspace, selfHosted: Awaited<ReturnType<typeof startSelfHostedBoard>>): Promise<{ run: ClickRun; bare: BareRun }> {
  const selfApp = await must('POST', `${p.url}/client/v1/apps`, { name: 'Board', slug: 'board', hosting: 'self', endpoint: { url: selfHosted.endpoint } }, ws.key, 201);
  await selfHosted.configure(selfApp.signingSecret, p.url);
  await must('PUT', `${p.url}/v0/apps/${selfApp.app.id}/manifest`, { manifest: selfHosted.manifest, target: 'production' }, ws.key, 200);
  const self = await install(p, ws, selfApp);
  const selfRun = await clicks(p, ws, self, { ...servers(p), app: { pids: async () => [selfHosted.pid] } }, 'self-hosted');
  const selfBare = await bare(async () => {
    const envelope = boardActionEnvelope({ ...self, workspaceId: ws.workspaceId, memberId: ws.memberId, block: selfRun.sample });
    const body = JSON.stringify(envelope);
    const headers = deliveryHeadersSync({ id: envelope.id, timestamp: Math.floor(Date.now() / 1000), body, secrets: [self.signingSecret], deliveryClass: 'interactive', installId: self.installId });
    const res = await request(selfHosted.endpoint, { method: 'POST', body, headers, dispatcher: agent });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`the app answered ${res.statusCode}`);
  }, { app: { pids: async () => [selfHosted.pid] } }, 'bare app');
  return { run: selfRun, bare: selfBare };
}

export async function run(): Promise<BenchRow[]> {
  const p = await startPlatform(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
  const selfHosted = await startSelfHostedBoard();
  process.stdout.write(`  topology: load generator (this process) → control plane (control-plane/src/main.ts, own process) → runtime node (runtime/src/main.ts, own process, ${process.env.RUNTIME_WORKERS ?? `${availableParallelism()} (its default)`} sandbox workers) `
    + `or self-hosted app (own process); Postgres ${process.env.REDIS_URL ? '+ Redis ' : ''}on this machine (${availableParallelism()} CPUs)\n`);
  try {
    const ws = await workspace(p);
    const hosted = only === undefined || only === 'hosted' ? await hostedRun(p, ws) : undefined;
    const self = only === undefined || only === 'self-hosted' ? await selfHostedRun(p, ws, selfHosted) : undefined;
    const appAlone = self !== undefined ? { perSecond: self.bare.busy.perSecond, name: 'the self-hosted app alone' }
      : { perSecond: hosted!.bare.busy.perSecond, name: 'the bare runtime (the app alone did not run)' };
    return [
      ...(hosted === undefined ? [] : rows('hosted', 'bare runtime', { share: TARGET_HOSTED_SHARE, p50Ms: TARGET_HOSTED_P50_MS }, hosted.run, hosted.bare, appAlone)),
      ...(self === undefined ? [] : rows('self-hosted', 'bare app', { share: TARGET_SELF_SHARE, p50Ms: TARGET_SELF_P50_MS }, self.run, self.bare, appAlone)),
    ];
  } finally {
    await selfHosted.stop();
    await p.stop();
    await agent.close();
  }
}
