// Connection hand-off (RUNTIME_HANDOFF=ingress) when a worker dies: a heap bomb on a handed
// connection ends its worker; the supervisor, which kept its copy of every handed connection, answers
// the bomber's connection (a request had entered guest code there) with the tagged 503 instead of a
// dropped connection, moves the dead worker's idle connections to a live worker (the clients keep
// their connections and never notice), and quarantines the bomber's version by the journal's entry:
// its next request is passed to the supervisor and runs on the quarantine worker.
import { request as httpRequest, Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startRuntime, startServer, type TestRuntime, type TestServer } from './support/runtime.ts';

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
      // Its answer names the cause, as on the default path (a heap bomb is caught by either limit).
      expect(['PlatformRuntimeCpuLimitError', 'PlatformRuntimeMemoryLimitError']).toContain((JSON.parse(bomb.body) as { _tag: string })._tag);
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

// Requests a dying worker had read and not entered run again on another worker, on the same
// connection: a request waiting for its app's isolate (pipelined behind one that holds it, calling
// out to an upstream that does not answer yet) and a request pipelined behind the one that takes
// the worker down. One worker and a spare, one isolate per version (RUNTIME_POOL_MAX=1), so that
// everything is read by the same worker and the spare takes its place.
const SLOW = `export default { async fetch(request, env) {
  if (new URL(request.url).pathname === '/hold') await fetch(env.UPSTREAM);
  return new Response('slow ok');
} };`;

/** Raw HTTP/1.1 answers read off a socket: `count` of them, or fewer if it closes first. */
function answers(socket: Socket, count: number): Promise<{ answers: Array<{ status: number; body: string }>; closed: boolean }> {
  return new Promise((resolve) => {
    let buf = '';
    const out: Array<{ status: number; body: string }> = [];
    const finish = (closed: boolean): void => {
      socket.off('data', onData);
      resolve({ answers: out, closed });
    };
    const onData = (chunk: Buffer): void => {
      buf += chunk.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buf.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        out.push({ status: Number(head.split(' ')[1]), body: buf.slice(end + 4, end + 4 + length) });
        buf = buf.slice(end + 4 + length);
        if (out.length === count) return finish(false);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => finish(true));
  });
}

describe('requests read and not entered when their worker dies', () => {
  let one: TestRuntime;
  let upstream: TestServer;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    upstream = await startServer(() => { /* answered only when the test closes it */ });
    one = await startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_SPARE_WORKERS: '1', RUNTIME_POOL_MAX: '1', RUNTIME_HANDOFF: 'ingress', RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'api.allowed.test' });
    await one.deploy('slow', SLOW, { egressHosts: ['api.allowed.test'], env: { UPSTREAM: `http://api.allowed.test:${upstream.port}/` } });
    await one.deploy('bomber', BOMBER);
    await one.deploy('bee', VICTIM);
    await eventually(() => (one.node.supervisor!.processes().filter((p) => p.ready).length === 2 ? true : undefined), 20_000);
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await one?.stop();
    await upstream?.close();
  });

  const open = (): Promise<Socket> => new Promise((resolve, reject) => {
    const s = connect(Number(new URL(one.url).port), '127.0.0.1', () => resolve(s));
    s.once('error', reject);
    sockets.push(s);
  });
  const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

  it('run again on another worker; the entered ones get the tagged 503, the culprit naming its cause', { timeout: 90_000 }, async () => {
    // Warm: each app's ticket and isolate on the worker (the first request of a slug asks the supervisor).
    for (const slug of ['slow', 'bomber', 'bee']) expect((await one.route(slug, '/')).status).toBe(200);
    const pids = one.node.supervisor!.processes().map((p) => p.pid);

    // A holds the slow app's one isolate (its call out is not answered); the request behind it waits.
    const a = await open();
    const aAnswers = answers(a, 2);
    a.write(get('/apps/slow/hold') + get('/apps/slow/'));
    await eventually(() => (upstream.hits.length === 1 ? true : undefined), 20_000);

    // B: the bomb, and a request pipelined behind it in the same write.
    const b = await open();
    const bAnswers = answers(b, 2);
    b.write(get('/apps/bomber/bomb') + get('/apps/bee/'));

    const [ra, rb] = await Promise.all([aAnswers, bAnswers]);
    expect(one.node.supervisor!.processes().some((p) => !pids.includes(p.pid))).toBe(true);
    // A: the entered request failed (it may have run), the waiting one ran again, on the same connection.
    expect(ra.closed).toBe(false);
    expect(ra.answers[0]!.status).toBe(503);
    expect(JSON.parse(ra.answers[0]!.body)).toMatchObject({ _tag: 'PlatformRuntimeCrashedError' });
    expect(ra.answers[1]).toEqual({ status: 200, body: 'slow ok' });
    // B: the culprit's answer names the cause; the request pipelined behind it ran on another worker.
    expect(rb.closed).toBe(false);
    expect(rb.answers[0]!.status).toBe(503);
    expect(['PlatformRuntimeCpuLimitError', 'PlatformRuntimeMemoryLimitError']).toContain((JSON.parse(rb.answers[0]!.body) as { _tag: string })._tag);
    expect(rb.answers[1]).toEqual({ status: 200, body: 'bee ok' });
    // Counted as the default path counts the requests it runs again.
    expect(/runtime_requests_retried_total (\d+)/.exec(await (await fetch(one.metricsUrl)).text())?.[1]).toBe('2');
    // Both connections still serve.
    const again = answers(a, 1);
    a.write(get('/apps/bee/'));
    expect((await again).answers).toEqual([{ status: 200, body: 'bee ok' }]);
  });
});
