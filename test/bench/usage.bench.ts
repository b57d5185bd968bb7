/**
 * What usage metering costs per request (issue 25, item 4): warm hosted route requests
 * (`GET /apps/bench/`, 10 keep-alive connections) through a runtime node beside a stub control
 * plane (test/bench/runtime-support.ts, which takes log and usage batches), once with metering on
 * and once with `RUNTIME_METERING=off` (a switch for this bench only), rounds alternated so drift
 * falls on both. The figure is the CPU of every server process per request (the supervisor, where
 * the meter counts, and the workers), read from /proc; the target is at most 5 % more with it on.
 * On a loaded machine that difference is below the noise, so the meter's own cost is measured too,
 * in this process, and set against the same CPU per request.
 * `BENCH_ROUNDS` (3, the median) and `BENCH_DURATION_MS` shorten it.
 */
import { createUsageRecorder } from '../../control-plane/src/apps/usage/recorder.ts';
import { createPgliteDb } from '../../control-plane/src/core/db/pglite-db.ts';
import { createLogger } from '../../control-plane/src/core/log/logger.ts';
import { createUsageMeter } from '../../runtime/src/usage/meter.ts';
import { cpuWindow, loadNow, loadRow, type CpuWindow } from './runtime-process-cpu.ts';
import { BENCH_ROUNDS, requestsPerSecond, spawnRuntime, startStubControlPlane, type BenchRow } from './runtime-support.ts';

const HANDLER = 'export default { async fetch(request) { await request.text(); return new Response("ok"); } };\n';

/**
 * The meter's own CPU per counted request, in this process: what the supervisor adds per request,
 * alone (an app's key in one minute, as a busy app's requests are), without the machine's noise.
 */
function meterUsPerRequest(): number {
  const meter = createUsageMeter(Date.now);
  const key = { appId: 'app_bench', version: 1, installId: 'ins_1' };
  const n = 1_000_000;
  for (let i = 0; i < 10_000; i++) meter.request(key, 'ok', 0.25);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) meter.request(key, 'ok', 0.25);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

/**
 * The control plane's count per delivery attempt or storage call (apps/usage/recorder.ts), in this
 * process: what a click adds (no write: the recorder writes once a second, off the click path).
 */
async function recorderUsPerCount(): Promise<number> {
  const db = await createPgliteDb();
  const recorder = createUsageRecorder({ db, clock: { now: Date.now }, logger: createLogger({ logLevel: 'silent' }) });
  const n = 200_000;
  try {
    for (let i = 0; i < 10_000; i++) recorder.add('app_bench', 'ins_1', { deliveriesSucceeded: 1 });
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) recorder.add('app_bench', 'ins_1', { deliveriesSucceeded: 1 });
    const used = process.cpuUsage(before);
    return (used.user + used.system) / n;
  } finally {
    await db.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU µs per request of all server processes, metering on or off, one round. */
async function round(controlPlaneUrl: string, metering: 'on' | 'off'): Promise<number> {
  const rt = await spawnRuntime({ CONTROL_PLANE_URL: controlPlaneUrl, RUNTIME_DIRECTORY_TTL_MS: '3600000', RUNTIME_WORKERS: '1', RUNTIME_METERING: metering });
  try {
    let window: CpuWindow | null = null;
    let perRequest = 0;
    await requestsPerSecond(rt.url, { method: 'GET', path: '/apps/bench/' }, {
      window: {
        start: () => { window = cpuWindow(rt.child.pid!); },
        end: (requests) => { perRequest = window!.end(requests).find((f) => f.label === 'all server processes')!.usPerRequest; },
      },
    });
    return perRequest;
  } finally {
    await rt.stop();
  }
}

export async function run(): Promise<BenchRow[]> {
  const load = loadNow();
  const meterUs = meterUsPerRequest();
  const recorderUs = await recorderUsPerCount();
  const stub = await startStubControlPlane([{ slug: 'bench', source: HANDLER }]);
  const on: number[] = [];
  const off: number[] = [];
  try {
    for (let i = 0; i < BENCH_ROUNDS; i++) {
      off.push(await round(stub.url, 'off'));
      on.push(await round(stub.url, 'on'));
    }
  } finally {
    await stub.close();
  }
  const [withIt, without] = [median(on), median(off)];
  const ratio = withIt / without;
  return [
    loadRow('usage metering', load),
    { name: 'route: CPU per request, all server processes, metering on', value: withIt, unit: 'µs', target: 'info', ratio: null },
    { name: 'route: CPU per request, all server processes, metering off', value: without, unit: 'µs', target: 'info', ratio: null },
    { name: 'route: metering cost per request (on − off)', value: withIt - without, unit: 'µs', target: 'info', ratio: null },
    { name: 'route: CPU per request, metering on / off', value: ratio, unit: '×', target: '≤ 1.05×', ratio: 1.05 / ratio },
    { name: 'meter alone: CPU per counted request (in process)', value: meterUs, unit: 'µs', target: 'info', ratio: null },
    { name: 'control plane: CPU per counted delivery attempt or storage call (in process)', value: recorderUs, unit: 'µs', target: 'info', ratio: null },
    { name: 'meter alone / route CPU per request with metering off', value: meterUs / without, unit: '×', target: '≤ 0.05×', ratio: 0.05 / (meterUs / without) },
  ];
}
