// A hot app is served by every worker: after one measured request, eight requests of one app at once, each held in guest code
// by an outbound fetch that the test answers only once all eight arrived, are spread over both
// workers (before, all went to the app's first rendezvous worker, one behind the other).
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, eventually, fixture, startRuntime, startServer, type TestRuntime, type TestServer } from './support/runtime.ts';

const COUNT = 8;
let rt: TestRuntime;
let api: TestServer;
const held: ServerResponse[] = [];

beforeAll(async () => {
  api = await startServer((_req, res) => { held.push(res); });
  rt = await startRuntime({ RUNTIME_WORKERS: '2', RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'api.allowed.test' });
  await rt.deploy('hot', fixture('basic'), { egressHosts: ['api.allowed.test'] });
}, 60_000);

afterAll(async () => {
  for (const res of held.splice(0)) res.end();
  await rt?.stop();
  await api?.close();
});

interface Load { workers: Array<{ index: number; inFlight: number }> }

/** Sends COUNT requests held at the egress server; resolves with the load seen while all are held, and the answers. */
async function burst(): Promise<{ load: Load; answers: Response[] }> {
  const target = encodeURIComponent(`http://api.allowed.test:${api.port}/slow`);
  const sent = Array.from({ length: COUNT }, () => rt.route('hot', `/fetch?url=${target}`));
  await eventually(() => (held.length === COUNT ? true : undefined));
  const load = (await (await fetch(`${rt.url}/internal/v1/load`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as Load;
  for (const res of held.splice(0)) res.end('held');
  return { load, answers: await Promise.all(sent) };
}

/** The app's cold starts and ended requests so far (a request's report arrives just after its answer). */
async function counts(): Promise<{ coldStarts: number; ended: number }> {
  const text = await (await fetch(rt.metricsUrl)).text();
  const ended = [...text.matchAll(/^runtime_requests_total\{[^}]*app="app_hot"[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  return { coldStarts: Number(/^runtime_cold_starts_total\{app="app_hot"\} (\d+)$/m.exec(text)?.[1] ?? 0), ended };
}

const afterEnded = (n: number) => eventually(async () => { const c = await counts(); return c.ended >= n ? c : undefined; });

describe('a hot app', () => {
  it('runs on more than one worker, and every request is answered', { timeout: 60_000 }, async () => {
    await eventually(async () => ((await rt.client.health()).ready === 2 ? true : undefined));
    // One request first: an app is spread only once its CPU per request was measured.
    expect((await rt.route('hot', '/echo')).status).toBe(200);
    const { load, answers } = await burst();
    const busy = load.workers.filter((w) => w.inFlight > 0);
    expect(busy).toHaveLength(2);
    expect(busy.reduce((n, w) => n + w.inFlight, 0)).toBe(COUNT);
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { body: string }).body).toBe('held');
    }
  });

  it('keeps its warm isolates on each worker: the next burst starts none', { timeout: 60_000 }, async () => {
    // One isolate per held request: four on each worker (the first request's isolate among them).
    expect((await afterEnded(COUNT + 1)).coldStarts).toBe(COUNT);
    const { load, answers } = await burst();
    expect(load.workers.filter((w) => w.inFlight > 0)).toHaveLength(2);
    for (const res of answers) expect(res.status).toBe(200);
    expect(await afterEnded(2 * COUNT + 1)).toEqual({ coldStarts: COUNT, ended: 2 * COUNT + 1 });
  });
});
