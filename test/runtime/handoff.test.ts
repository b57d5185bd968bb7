// Connection hand-off (RUNTIME_HANDOFF=ingress, issue 24 item 2): a hosted-ingress connection is
// handed once to a sandbox worker, which parses its requests and runs a light app's requests in its
// own isolates (no supervisor hop: runtime_handoff_requests_total{path="local"} counts them, and
// the request id is one the worker made, `req_{node}{worker}.…`);
// the internal API stays on the supervisor; a heavy app's requests are passed to the supervisor,
// whose admission holds them; egress, the app log and the metrics work as for any request.
import { request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, eventually, fixture, startRuntime, startServer, type TestRuntime, type TestServer } from './support/runtime.ts';

let rt: TestRuntime;
let api: TestServer;
let port: number;

beforeAll(async () => {
  api = await startServer((_req, res, body) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`upstream:${body}`));
  rt = await startRuntime({ RUNTIME_WORKERS: '2', RUNTIME_HANDOFF: 'ingress', RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'api.allowed.test' });
  port = Number(new URL(rt.url).port);
  await rt.deploy('basic', fixture('basic'), { egressHosts: ['api.allowed.test'], env: { GREETING: 'hi' } });
  await rt.deploy('spin', fixture('basic'));
  await eventually(async () => ((await rt.client.health()).ready === 2 ? true : undefined));
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  await api?.close();
});

interface Answer { status: number; headers: IncomingHttpHeaders; body: string }

/** One request on `agent` (keep-alive: its connection is reused). */
function send(agent: Agent, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A request id made by a worker (`req_{node}{worker}.{start}.{n}`): the request was parsed there. */
const workerMade = (a: Answer): boolean => /^req_[0-9a-f]{8}\d+\.[0-9a-z]+\.[0-9a-z]+$/.test(String(a.headers['x-request-id']));

/** Requests on handed connections so far: run by the worker itself, or passed to the supervisor. */
async function paths(): Promise<{ local: number; passed: number }> {
  const text = await (await fetch(rt.metricsUrl)).text();
  const n = (path: string): number => Number(new RegExp(`^runtime_handoff_requests_total\\{path="${path}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { local: n('local'), passed: n('passed') };
}

/** The counts once `local + passed` reached `total` (a local request's end is reported just after its answer). */
const pathsAt = (total: number) => eventually(async () => { const p = await paths(); return p.local + p.passed >= total ? p : undefined; });

describe('connection hand-off', () => {
  it('a worker answers hosted requests on a handed connection, itself (no supervisor hop)', { timeout: 30_000 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers: Answer[] = [];
      for (let i = 0; i < 5; i++) answers.push(await send(agent, `/apps/basic/echo?i=${i}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: `body ${i}` }));
      for (const [i, a] of answers.entries()) {
        expect(a.status).toBe(200);
        const echoed = JSON.parse(a.body) as { url: string; body: string; env: { GREETING: string }; headers: Record<string, string> };
        expect(echoed).toMatchObject({ url: `${rt.url}/echo?i=${i}`, body: `body ${i}`, env: { GREETING: 'hi' } });
        expect(echoed.headers['x-forwarded-prefix']).toBe('/apps/basic');
      }
      expect(answers.every(workerMade)).toBe(true);
      // Every one ran in the worker: none crossed to the supervisor and back.
      expect(await pathsAt(5)).toEqual({ local: 5, passed: 0 });
    } finally {
      agent.destroy();
    }
  });

  it('the internal API is served by the supervisor on its own connections; on a handed one it is misdirected', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await send(agent, '/internal/v1/load', { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(200);
      expect((await send(agent, '/apps/basic/echo')).status).toBe(200);
    } finally {
      agent.destroy();
    }
    const handed = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await send(handed, '/apps/basic/echo')).status).toBe(200);
      const wrong = await send(handed, '/healthz');
      expect(wrong.status).toBe(421);
      expect(wrong.headers.connection).toBe('close');
      expect(JSON.parse(wrong.body)).toMatchObject({ _tag: 'PlatformApiNotFoundError' });
    } finally {
      handed.destroy();
    }
  });

  it('a local request calls out through the supervisor\'s egress, and its lines reach the app log', { timeout: 30_000 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await send(agent, '/apps/basic/echo');
      const target = encodeURIComponent(`http://api.allowed.test:${api.port}/x`);
      const a = await send(agent, `/apps/basic/fetch?url=${target}`);
      expect(workerMade(a)).toBe(true);
      expect(JSON.parse(a.body)).toMatchObject({ status: 200, body: 'upstream:' });
      const denied = await send(agent, `/apps/basic/fetch?url=${encodeURIComponent('https://example.com/')}`);
      expect(denied.status).toBe(502);
      const logged = await send(agent, '/apps/basic/log?who=handoff');
      expect(workerMade(logged)).toBe(true);
      const id = String(logged.headers['x-request-id']);
      const lines = await eventually(() => {
        const l = rt.node.appLog.read('app_basic').filter((e) => e.requestId === id);
        return l.some((e) => e.level === 'request') ? l : undefined;
      });
      expect(lines.map((l) => l.message)).toEqual(expect.arrayContaining([expect.stringContaining('hello from handoff'), expect.stringMatching(/^GET \/apps\/basic\/log → 200 · cpu/)]));
      const metrics = await (await fetch(rt.metricsUrl)).text();
      expect(metrics).toMatch(/runtime_requests_total\{app="app_basic",kind="route",outcome="ok"\} \d+/);
    } finally {
      agent.destroy();
    }
  });

  it('a heavy app\'s requests go through the supervisor (admission applies)', { timeout: 60_000 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // ~20 ms of CPU a request: heavy (≥ 5 ms) after the first few ended.
      const before = await paths();
      const total = before.local + before.passed;
      for (let i = 0; i < 6; i++) expect((await send(agent, '/apps/spin/spin?n=5000000')).status).toBe(200);
      // The first ran in the worker; once its end was reported the app was heavy, and the worker
      // passes its requests from then on (a few more may run here while the report, batched per
      // turn, and the revoke travel: a bounded exposure, as for a light app turning heavy in v2).
      const after = await pathsAt(total + 6);
      expect(after.local - before.local).toBeGreaterThanOrEqual(1);
      expect(after.passed - before.passed).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 3; i++) expect((await send(agent, '/apps/spin/spin?n=5000000')).status).toBe(200);
      const last = await pathsAt(total + 9);
      expect(last).toEqual({ local: after.local, passed: after.passed + 3 });
      expect(rt.node.appLog.read('app_spin').filter((l) => l.level === 'request')).toHaveLength(9);
    } finally {
      agent.destroy();
    }
  });
});
