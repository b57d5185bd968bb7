// Connection hand-off (RUNTIME_HANDOFF=ingress) when a worker dies: a heap bomb on a handed
// connection ends its worker; the supervisor, which kept its copy of every handed connection, answers
// the bomber's connection (a request had entered guest code there) with the tagged 503 instead of a
// dropped connection, moves the dead worker's idle connections to a live worker (the clients keep
// their connections and never notice), and quarantines the bomber's version by the journal's entry:
// its next request is passed to the supervisor and runs on the quarantine worker.
import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startRuntime, type TestRuntime } from './support/runtime.ts';

const BOMBER = `export default { fetch(request) {
  if (new URL(request.url).pathname === '/bomb') Array(1e9).fill(0);
  return new Response('bomber ok');
} };`;
const VICTIM = `export default { fetch() { return new Response('bee ok'); } };`;

let rt: TestRuntime;
let port: number;

beforeAll(async () => {
  rt = await startRuntime({ RUNTIME_WORKERS: '2', RUNTIME_SPARE_WORKERS: '1', RUNTIME_HANDOFF: 'ingress' });
  port = Number(new URL(rt.url).port);
  await rt.deploy('bomber', BOMBER);
  await rt.deploy('bee', VICTIM);
  await eventually(async () => ((await rt.client.health()).ready === 2 ? true : undefined), 20_000);
}, 60_000);
afterAll(() => rt?.stop());

interface Answer { status: number; body: string; reused: boolean; localPort: number }

function send(agent: Agent, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body, reused: req.reusedSocket, localPort: req.socket!.localPort! }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function metric(pattern: RegExp): Promise<number> {
  const m = pattern.exec(await (await fetch(rt.metricsUrl)).text());
  return m === null ? 0 : Number(m[1]);
}

describe('a worker dies under handed connections', () => {
  it('the entered request gets the tagged 503, idle connections move to a live worker, the culprit is quarantined', { timeout: 90_000 }, async () => {
    // Four victim connections (two on each worker: each goes to the worker holding the fewest).
    const victims = Array.from({ length: 4 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const bomber = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await Promise.all(victims.map((a) => send(a, '/apps/bee/')));
      for (const a of first) expect(a).toMatchObject({ status: 200, body: 'bee ok' });
      expect((await send(bomber, '/apps/bomber/')).body).toBe('bomber ok');
      const pids = rt.node.supervisor!.load().map((w) => w.pid);

      const bomb = await send(bomber, '/apps/bomber/bomb');
      expect(bomb.status).toBe(503);
      expect(JSON.parse(bomb.body)).toMatchObject({ _tag: 'PlatformRuntimeCrashedError' });
      await eventually(() => (rt.node.supervisor!.load().some((w) => !pids.includes(w.pid)) ? true : undefined), 20_000);

      // Every victim keeps its connection (the same local port, reused) and is answered.
      for (const [i, agent] of victims.entries()) {
        const again = await send(agent, '/apps/bee/');
        expect(again).toMatchObject({ status: 200, body: 'bee ok', reused: true, localPort: first[i]!.localPort });
      }
      expect(await metric(/runtime_quarantined_versions (\d+)/)).toBe(1);
      const passedBefore = await metric(/runtime_handoff_requests_total\{path="passed"\} (\d+)/);
      // The bomber's next request (a new connection: its last one was closed) runs on the quarantine worker.
      const after = await send(new Agent({ keepAlive: false }), '/apps/bomber/');
      expect(after).toMatchObject({ status: 200, body: 'bomber ok' });
      expect(await metric(/runtime_handoff_requests_total\{path="passed"\} (\d+)/)).toBe(passedBefore + 1);
      const log = await rt.client.appLogs('app_bomber');
      expect(log.some((l) => l.level === 'limit' && /runs on the quarantine worker/.test(l.message))).toBe(true);
    } finally {
      for (const a of victims) a.destroy();
      bomber.destroy();
    }
  });
});
