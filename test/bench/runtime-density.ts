/**
 * Idle isolates per GiB: one worker is given N app versions, each answers one request and stays
 * idle (its isolate with the guest runtime and a small bundle loaded); the worker's resident memory
 * grows by ΔRSS. Figure: N / ΔRSS in GiB. Target ≥ 500.
 */
import { type BenchRow, sha256Hex, signedDelivery, spawnRuntime } from './runtime-support.ts';

const APP = 'const greeting = "hello"; export default { fetch(request) { return new Response(greeting + " " + new URL(request.url).pathname); } };\n';
const VERSIONS = 300;

async function workerRss(url: string, secret: string): Promise<number> {
  const res = await fetch(`${url}/internal/v1/load`, { headers: { authorization: `Bearer ${secret}` } });
  const load = await res.json() as { workers: Array<{ rssBytes: number | null }> };
  return load.workers[0]!.rssBytes!;
}

export async function run(): Promise<BenchRow[]> {
  const rt = await spawnRuntime({ RUNTIME_WORKERS: '1', RUNTIME_WORKER_ISOLATE_BUDGET_MB: '65536', RUNTIME_ISOLATE_IDLE_MS: '86400000', RUNTIME_POOL_MAX: '1' });
  const { SECRET } = await import('./runtime-support.ts');
  try {
    const sha = sha256Hex(APP);
    await rt.client.putBundle(sha, new TextEncoder().encode(APP));
    const deliver = (version: number) => rt.client.deliver({
      app: { id: 'app_density', slug: 'density', version }, bundle: { sha256: sha }, target: 'production', baseUrl: 'https://platform.example',
      ...signedDelivery({ id: `dlv_${version}`, data: {} }),
    });
    for (let v = 1; v <= 5; v++) await deliver(v); // warm the worker itself (code caches, JIT)
    await new Promise((r) => setTimeout(r, 500));
    const before = await workerRss(rt.url, SECRET);
    for (let v = 100; v < 100 + VERSIONS; v++) {
      const r = await deliver(v);
      if (r.outcome !== 'ok') throw new Error(r.text());
    }
    await new Promise((r) => setTimeout(r, 500));
    const after = await workerRss(rt.url, SECRET);
    const perGiB = VERSIONS / ((after - before) / 1024 ** 3);
    return [
      { name: `idle isolates per GiB (${VERSIONS} versions, ΔRSS ${((after - before) / 1024 ** 2).toFixed(0)} MB)`, value: perGiB, unit: 'isolates/GiB', target: '≥ 500', ratio: perGiB / 500 },
      { name: 'resident memory per idle isolate', value: (after - before) / VERSIONS / 1024 ** 2, unit: 'MB', target: 'info', ratio: null },
    ];
  } finally {
    await rt.stop();
  }
}
