// A hot app is served by every worker: eight requests of one app at once, each held in guest code
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

describe('a hot app', () => {
  it('runs on more than one worker, and every request is answered', { timeout: 60_000 }, async () => {
    await eventually(async () => ((await rt.client.health()).ready === 2 ? true : undefined));
    const target = encodeURIComponent(`http://api.allowed.test:${api.port}/slow`);
    const answers = Array.from({ length: COUNT }, () => rt.route('hot', `/fetch?url=${target}`));
    await eventually(() => (held.length === COUNT ? true : undefined));
    const load = (await (await fetch(`${rt.url}/internal/v1/load`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as Load;
    const busy = load.workers.filter((w) => w.inFlight > 0);
    expect(busy).toHaveLength(2);
    expect(busy.reduce((n, w) => n + w.inFlight, 0)).toBe(COUNT);
    for (const res of held.splice(0)) res.end('held');
    for (const res of await Promise.all(answers)) {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { body: string }).body).toBe('held');
    }
  });
});
