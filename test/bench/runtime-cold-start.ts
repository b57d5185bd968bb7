/**
 * Cold start of a 1 MB and a 10 MB bundle: latency of the first delivery to a new app version (a
 * new isolate: compile the bundle's script form with the worker's own code cache, evaluate, bind,
 * first dispatch, with the spare isolate ready, as in steady state) minus the latency of a warm
 * delivery, medians over several versions. The very first load of each bundle (it runs as a
 * module; its script form is prepared after that request) is reported beside it, and so is the
 * cold start of a 1 MB bundle the conversion refuses (it uses `import.meta`, so it always starts
 * as a module: what every cold start cost before). Target: 1 MB ≤ 10 ms over warm.
 */
import { type BenchRow, type RuntimeProcess, percentile, sha256Hex, signedDelivery, spawnRuntime } from './runtime-support.ts';

/** A module of `bytes` characters shaped like bundled app code: many small functions and strings. */
function bundleOf(bytes: number, tail = ''): string {
  const parts: string[] = [];
  let size = 0;
  // Just under `bytes` (10 MB is the largest bundle the platform accepts).
  for (let i = 0; size < bytes - 300; i++) {
    const fn = `function f${i}(a, b) { const label = "item-${i}-${'x'.repeat(40)}"; if (a > ${i}) return label.length + b; return [a, b, ${i}].map((v) => v * 2).reduce((x, y) => x + y, 0); }\n`;
    parts.push(fn);
    size += fn.length;
  }
  parts.push(`export default { fetch() { return new Response("ok"); } };\n${tail}`);
  return parts.join('');
}

async function deliverMs(rt: RuntimeProcess, sha: string, version: number): Promise<number> {
  const started = performance.now();
  const result = await rt.client.deliver({
    app: { id: 'app_cold', slug: 'cold', version }, bundle: { sha256: sha }, target: 'production', baseUrl: 'https://platform.example',
    ...signedDelivery({ id: `dlv_${version}`, data: {} }),
  });
  if (result.outcome !== 'ok') throw new Error(`cold start bench: ${result.text()}`);
  return performance.now() - started;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = 1024 * 1024;

async function measure(rt: RuntimeProcess, source: string, samples: number, firstVersion: number): Promise<{ first: number; cold: number; warm: number }> {
  const sha = sha256Hex(source);
  await rt.client.putBundle(sha, new TextEncoder().encode(source));
  const first = await deliverMs(rt, sha, firstVersion);
  const warm: number[] = [];
  for (let i = 0; i < 30; i++) warm.push(await deliverMs(rt, sha, firstVersion));
  const cold: number[] = [];
  for (let i = 1; i <= samples; i++) {
    await pause(100); // between requests the worker makes its next spare isolate (and, once, the script form)
    cold.push(await deliverMs(rt, sha, firstVersion + i));
  }
  return { first, cold: percentile(cold, 50), warm: percentile(warm, 50) };
}

export async function run(): Promise<BenchRow[]> {
  const rt = await spawnRuntime({ RUNTIME_WORKERS: '1', RUNTIME_WORKER_ISOLATE_BUDGET_MB: '256' });
  try {
    const small = await measure(rt, bundleOf(MB), 15, 1_000);
    const large = await measure(rt, bundleOf(10 * MB), 7, 2_000);
    const asModule = await measure(rt, bundleOf(MB, 'export const here = import.meta;\n'), 7, 3_000);
    return [
      { name: 'cold start, 1 MB bundle (median, over warm)', value: small.cold - small.warm, unit: 'ms', target: '≤ 10 ms', ratio: 10 / Math.max(0.001, small.cold - small.warm) },
      { name: 'first load ever, 1 MB bundle (no code cache yet, over warm)', value: small.first - small.warm, unit: 'ms', target: 'info', ratio: null },
      { name: 'cold start, 10 MB bundle (median, over warm)', value: large.cold - large.warm, unit: 'ms', target: 'info', ratio: null },
      { name: 'first load ever, 10 MB bundle (no code cache yet, over warm)', value: large.first - large.warm, unit: 'ms', target: 'info', ratio: null },
      { name: 'cold start, 1 MB bundle kept as a module (import.meta; median, over warm)', value: asModule.cold - asModule.warm, unit: 'ms', target: 'info', ratio: null },
      { name: 'warm delivery latency, sequential (median)', value: small.warm, unit: 'ms', target: 'info', ratio: null },
    ];
  } finally {
    await rt.stop();
  }
}
