/**
 * Cost of the OpenTelemetry export per hosted click (issue 25): the same hosted board click, one at
 * a time, on two platforms from this same tree running side by side: one with the export off (no
 * OTEL_EXPORTER_OTLP_ENDPOINT) and one exporting every trace (the default sampler keeps all), every
 * log line and the metrics to a collector on loopback in this process, which only discards the
 * bytes (decoding is a collector's cost, not ours). They are clicked in turn, one click on each, so
 * the machine's other work weighs on both alike. The control plane and the runtime node are
 * processes of their own, logging at `info`; their CPU per click (with the sandbox workers, from
 * /proc) is compared. After the clicks the span processor's five-second batch delay is waited out,
 * so the exports of the last clicks are counted.
 *
 * Target: tracing costs at most 5 % of a click's CPU with tracing off. BENCH_TELEMETRY_CLICKS sets
 * the clicks per run (default 1000); BENCH_TELEMETRY_RATIO (0 to 1) runs the exporting platform with
 * `OTEL_TRACES_SAMPLER=parentbased_traceidratio` at that ratio instead of keeping every trace (log
 * lines and metrics are exported either way). Run by `npm run bench -- telemetry`.
 */
import { build } from 'esbuild';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { call, childPids, cpuMs, install, must, startPlatform, workspace, type BenchPlatform } from '../fixtures/blocks/bench-support.ts';
import type { BenchRow } from './run.ts';

const CLICKS = Number(process.env.BENCH_TELEMETRY_CLICKS ?? 1000);
const WARMUP = 100;
const BLOCKS = 8;
const TARGET_SHARE = 0.05;
/** BatchSpanProcessor's default scheduled delay, plus a second. */
const EXPORT_WAIT_MS = 6_000;
const RATIO = process.env.BENCH_TELEMETRY_RATIO;
const SAMPLING: Record<string, string> = RATIO === undefined ? {} : { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: RATIO };
const SAMPLED = RATIO === undefined ? 'all sampled' : `${Number(RATIO) * 100} % sampled`;

/** A collector that reads and drops what it is sent, counting the exports by signal. */
async function startSink() {
  const exports: Record<string, number> = {};
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports[req.url ?? ''] = (exports[req.url ?? ''] ?? 0) + 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Hosted board blocks ready to be clicked ("Add one"), each with its current revision. */
async function boardBlocks(p: BenchPlatform) {
  const ws = await workspace(p);
  const created = await must('POST', `${p.url}/client/v1/apps`, { name: 'Hosted board', slug: 'hosted-board', hosting: 'platform' }, ws.key, 201);
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/blocks/hosted-board.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  await must('POST', `${p.url}/v0/apps/${created.app.id}/versions?target=production`, undefined, ws.key, 200, bundled.outputFiles[0]!.contents);
  const app = await install(p, ws, created);
  const blocks: Array<{ id: string; revision: number; ref: string }> = [];
  for (let i = 0; i < BLOCKS; i++) {
    const block = await must('POST', `${p.url}/v0/blocks`, { type: 'board', props: { title: `B${i}` }, circleId: ws.circleId }, `Bearer ${app.token}`, 201);
    const shown = (await must('GET', `${p.url}/client/v1/blocks/${block.id}`, undefined, ws.key, 200)).block;
    const ref = JSON.stringify(shown.tree).match(/"label":"Add one","action":\{"ref":"(a\d+)"\}/)?.[1];
    if (ref === undefined) throw new Error('no "Add one" button in the board tree');
    blocks.push({ id: block.id, revision: shown.revision, ref });
  }
  let turn = 0;
  return async () => {
    const block = blocks[turn++ % BLOCKS]!;
    const res = await call('POST', `${p.url}/client/v1/blocks/${block.id}/click`, { revision: block.revision, ref: block.ref }, ws.key);
    if (res.status !== 200 || res.body.outcome !== 'applied') throw new Error(`click answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    block.revision = res.body.block.revision;
  };
}

/** A platform to click on: its clicks, and the CPU (ms) its control plane, runtime node and workers used so far. */
async function clickable(env: Record<string, string>) {
  const p = await startPlatform(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test', env);
  try {
    const click = await boardBlocks(p);
    const pids = [p.pids.controlPlane, p.pids.runtime, ...await childPids(p.pids.runtime)];
    return { click, cpu: () => cpuMs(pids, { descendants: false }), stop: () => p.stop() };
  } catch (err) {
    await p.stop();
    throw err;
  }
}

/**
 * Both platforms run at once and are clicked in turn (one click on each, again and again), so the
 * machine's other work weighs on both alike: on this shared machine two runs one after the other
 * differ by more than the cost measured.
 */
async function cpuPerClick(off: Awaited<ReturnType<typeof clickable>>, on: Awaited<ReturnType<typeof clickable>>): Promise<{ off: number; on: number; load: string }> {
  for (let i = 0; i < WARMUP; i++) {
    await off.click();
    await on.click();
  }
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const before = { off: await off.cpu(), on: await on.cpu() };
  for (let i = 0; i < CLICKS; i++) {
    await off.click();
    await on.click();
  }
  await delay(EXPORT_WAIT_MS);
  return { off: ((await off.cpu()) - before.off) * 1000 / CLICKS, on: ((await on.cpu()) - before.on) * 1000 / CLICKS, load };
}

export async function run(): Promise<BenchRow[]> {
  const sink = await startSink();
  const platforms: Array<{ stop(): Promise<void> }> = [];
  try {
    const off = await clickable({});
    platforms.push(off);
    const on = await clickable({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, ...SAMPLING });
    platforms.push(on);
    const measured = await cpuPerClick(off, on);
    process.stdout.write(`  CPU per click (control plane + runtime node + workers; ${CLICKS} clicks on each, one at a time, in turn; load average ${measured.load} before): `
      + `off ${measured.off.toFixed(0)} µs, on ${measured.on.toFixed(0)} µs; exports received ${JSON.stringify(sink.exports)}\n`);
    const cost = measured.on - measured.off;
    const share = cost / measured.off;
    return [
      { name: 'hosted click CPU, tracing off', value: measured.off, unit: 'µs', target: '–', ratio: null },
      { name: `hosted click CPU, tracing on (${SAMPLED}, logs exported)`, value: measured.on, unit: 'µs', target: '–', ratio: null },
      { name: `cost of tracing per click (on − off, ${SAMPLED})`, value: cost, unit: 'µs', target: '–', ratio: null },
      { name: `cost of tracing as a share of the click off (${SAMPLED})`, value: 100 * share, unit: '%', target: `≤ ${100 * TARGET_SHARE} %`, ratio: share <= 0 ? Infinity : TARGET_SHARE / share },
    ];
  } finally {
    for (const p of platforms) await p.stop();
    await sink.stop();
  }
}
