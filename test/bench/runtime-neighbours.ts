/**
 * Tenants side by side on one runtime node (as many sandbox workers as cores):
 *
 * - noisy neighbour: a victim app's p99 latency (one connection, trivial route) while another app
 *   keeps 40 requests in flight that each compute ~45 ms of CPU, against the victim's quiet p99
 *   measured just before. Target ≤ 2×.
 * - heap bomb: the victim apps B and C under load while app A's route allocates without bound
 *   (`Array(1e9).fill(0)`, which no CPU stop interrupts: V8 fills inside a builtin). Counted: B's and
 *   C's failed requests (only those inside guest code on the dying worker may fail), and the time
 *   from the bomb until every app, A's ordinary route included, is served normally again (≤ 1 s).
 *   A second bomb from A (quarantined by the first) must fail none of B's or C's requests.
 */
import { Pool } from 'undici';
import { type BenchRow, type StubApp, percentile, spawnRuntime, startStubControlPlane } from './runtime-support.ts';

const TRIVIAL = 'export default { fetch() { return new Response("ok"); } };\n';
// n iterations of arithmetic: the noisy app's requests are made to cost ~45 ms of CPU each.
const SPIN = `export default { fetch(request) {
  const n = Number(new URL(request.url).searchParams.get('n'));
  let x = 0; for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003;
  return new Response(String(x));
} };\n`;
const BOMB = `export default { fetch(request) {
  if (new URL(request.url).pathname === '/bomb') Array(1e9).fill(0);
  return new Response("ok");
} };\n`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample { at: number; ms: number; ok: boolean }

/** Requests `path` one at a time until `stop()`, recording each answer's time and latency. */
function loop(origin: string, path: string): { samples: Sample[]; stop: () => Promise<void> } {
  const pool = new Pool(origin, { connections: 1, pipelining: 1 });
  const samples: Sample[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      let ok = false;
      try {
        const res = await pool.request({ method: 'GET', path });
        await res.body.arrayBuffer();
        ok = res.statusCode === 200;
      } catch {
        ok = false;
      }
      samples.push({ at: performance.now(), ms: performance.now() - started, ok });
    }
  })();
  return { samples, stop: async () => { running = false; await done; await pool.close(); } };
}

async function noisyNeighbour(origin: string): Promise<{ quiet: number; noisy: number }> {
  // Calibrate: iterations of SPIN per CPU millisecond, from the wall time of requests alone on a quiet node.
  const probe = 4_000_000;
  const times: number[] = [];
  for (let i = 0; i < 8; i++) {
    const started = performance.now();
    await fetch(`${origin}/apps/noisy/?n=${probe}`).then((r) => r.text());
    times.push(performance.now() - started);
  }
  const perMs = probe / percentile(times, 50);
  const n = Math.round(perMs * 45);

  const quietLoop = loop(origin, '/apps/victim/');
  await sleep(3_000);
  await quietLoop.stop();
  const quiet = percentile(quietLoop.samples.slice(50).map((s) => s.ms), 99);

  const flood = Array.from({ length: 40 }, () => loop(origin, `/apps/noisy/?n=${n}`));
  await sleep(500);
  const victim = loop(origin, '/apps/victim/');
  await sleep(5_000);
  await victim.stop();
  await Promise.all(flood.map((f) => f.stop()));
  return { quiet, noisy: percentile(victim.samples.map((s) => s.ms), 99) };
}

async function heapBomb(origin: string, quietP99: number): Promise<{ failed: number; recoveryMs: number; repeatFailed: number }> {
  const bomb = async (): Promise<{ failed: number; recoveryMs: number }> => {
    const victims = [...Array.from({ length: 3 }, () => loop(origin, '/apps/bee/')), ...Array.from({ length: 3 }, () => loop(origin, '/apps/sea/'))];
    await sleep(1_000);
    const sent = performance.now();
    if (process.env.BENCH_DEBUG) console.error('SENT', sent.toFixed(0));
    const status = await fetch(`${origin}/apps/bomber/bomb`).then((r) => r.status, () => 0);
    const bombAt = performance.now();
    // A's ordinary route, until it answers (from the quarantine worker).
    let aBack = performance.now();
    for (let i = 0; i < 500; i++) {
      const ok = await fetch(`${origin}/apps/bomber/`).then((r) => r.ok, () => false);
      aBack = performance.now();
      if (ok) break;
      await sleep(10);
    }
    await sleep(1_500);
    await Promise.all(victims.map((v) => v.stop()));
    const after = victims.flatMap((v) => v.samples).filter((s) => s.at >= sent);
    const failed = after.filter((s) => !s.ok).length;
    // Normal: answered, and no slower than several times the quiet p99 (or 50 ms).
    const slow = Math.max(5 * quietP99, 50);
    const lastAbnormal = after.filter((s) => !s.ok || s.ms > slow).reduce((t, s) => Math.max(t, s.at), sent);
    if (status === 200) throw new Error('the bomb was answered 200');
    if (process.env.BENCH_DEBUG) console.error({ bombAnswered: bombAt - sent, aBack: aBack - sent, lastAbnormal: lastAbnormal - sent, abnormal: after.filter((s) => !s.ok || s.ms > slow).map((s) => [Math.round(s.at - sent), Math.round(s.ms), s.ok]) });
    return { failed, recoveryMs: Math.max(lastAbnormal, aBack) - sent };
  };
  const first = await bomb();
  const second = await bomb();
  return { failed: first.failed, recoveryMs: first.recoveryMs, repeatFailed: second.failed };
}

export async function run(): Promise<BenchRow[]> {
  const apps: StubApp[] = [
    { slug: 'victim', source: TRIVIAL }, { slug: 'noisy', source: SPIN },
    { slug: 'bee', source: TRIVIAL }, { slug: 'sea', source: TRIVIAL }, { slug: 'bomber', source: BOMB },
  ];
  const stub = await startStubControlPlane(apps);
  const rt = await spawnRuntime({ CONTROL_PLANE_URL: stub.url, RUNTIME_DIRECTORY_TTL_MS: '3600000' });
  try {
    const origin = new URL(rt.url).origin;
    for (const a of apps) await fetch(`${origin}/apps/${a.slug}/`).then((r) => r.text());
    const nn = await noisyNeighbour(origin);
    const hb = await heapBomb(origin, nn.quiet);
    return [
      { name: 'victim p99, quiet', value: nn.quiet, unit: 'ms', target: 'reference', ratio: null },
      { name: 'victim p99 beside 40 in-flight ~45 ms-CPU requests of another app', value: nn.noisy, unit: 'ms', target: '≤ 2× quiet p99', ratio: (2 * nn.quiet) / nn.noisy },
      { name: 'heap bomb: victim requests failed (in guest code on the dying worker only)', value: hb.failed, unit: 'requests', target: 'info', ratio: null },
      { name: 'heap bomb: until every app is served normally again', value: hb.recoveryMs, unit: 'ms', target: '≤ 1 s', ratio: 1000 / hb.recoveryMs },
      { name: 'heap bomb again (quarantined): victim requests failed', value: hb.repeatFailed, unit: 'requests', target: '0', ratio: hb.repeatFailed === 0 ? 1 : 0 },
    ];
  } finally {
    await rt.stop();
    await stub.close();
  }
}
