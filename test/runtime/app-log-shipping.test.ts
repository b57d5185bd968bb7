/**
 * Issue 14 item 1 on the node: every request leaves a `request` line, a route that throws or answers
 * a 5xx counts as `error` in the metrics and the log, the lines are shipped to the control plane's
 * `/internal/v1/logs` (a loopback stand-in records them) with the node's secret, and secret env
 * values never leave the node — neither in what the guest logs nor in the node's own lines (a
 * blocked fetch names the URL the guest asked for).
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogShipper } from '../../runtime/src/logs/shipper.ts';
import type { AppLogInput } from '../../runtime/src/logs/app-log.ts';
import { fixture, SECRET, startRuntime, startServer, type TestRuntime, type TestServer } from './support/runtime.ts';

const SECRET_VALUE = 'hunter2-secret-value';

interface Shipped { node: string; lines: Array<AppLogInput & { request?: Record<string, unknown> }> }

let rt: TestRuntime;
let controlPlane: TestServer;
const batches: Shipped[] = [];
const waiting: Array<() => void> = [];

/** Resolves once a shipped line passes `test` (the stand-in control plane wakes it on each batch). */
async function shippedLine(test: (l: Shipped['lines'][number]) => boolean): Promise<Shipped['lines'][number]> {
  for (;;) {
    const found = batches.flatMap((b) => b.lines).find(test);
    if (found !== undefined) return found;
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

beforeAll(async () => {
  controlPlane = await startServer((req, res, body) => {
    if (req.url === '/internal/v1/logs' && req.headers.authorization === `Bearer ${SECRET}`) {
      batches.push(JSON.parse(body) as Shipped);
      for (const wake of waiting.splice(0)) wake();
      return void res.writeHead(204).end();
    }
    res.writeHead(404).end();
  });
  rt = await startRuntime({ CONTROL_PLANE_URL: controlPlane.url, RUNTIME_LOG_FLUSH_MS: '20' });
  await rt.deploy('basic', fixture('basic'), { env: { SECRET_TOKEN: SECRET_VALUE }, secretEnvKeys: ['SECRET_TOKEN'] });
}, 60_000);

afterAll(async () => {
  for (const wake of waiting.splice(0)) wake();
  await rt?.stop();
  await controlPlane?.close();
});

async function metric(pattern: RegExp): Promise<number> {
  const text = await (await fetch(rt.metricsUrl)).text();
  return Number(pattern.exec(text)?.[1] ?? 0);
}

describe('the request line and the outcome counted', () => {
  it('a route that throws is an error in the metrics, and its line says so with the stack', async () => {
    const before = await metric(/runtime_requests_total\{app="app_basic",kind="route",outcome="error"\} (\d+)/);
    const res = await rt.route('basic', '/throw');
    expect(res.status).toBe(500);
    const requestId = res.headers.get('x-request-id')!;
    const request = await shippedLine((l) => l.requestId === requestId && l.level === 'request');
    expect(request).toMatchObject({ appId: 'app_basic', version: 1, kind: 'route', status: 'error', installId: null, deliveryId: null });
    // The path as the client asked for it: under /apps/{slug} here.
    expect(request.request).toMatchObject({ label: 'GET /apps/basic/throw', outcome: 'error', httpStatus: 500, outbound: 0 });
    expect(request.message).toMatch(/^GET \/apps\/basic\/throw → 500 error · cpu [\d.]+ ms · wall \d+ ms · 0 outbound$/);
    const thrown = await shippedLine((l) => l.requestId === requestId && l.level === 'error');
    expect(thrown.message).toContain('handler failed');
    // The stack as data: this bundle has no source map, so its frames name the bundle.
    expect(thrown.error?.frames[0]).toMatchObject({ file: 'app:///bundle.js', line: expect.any(Number), raw: null });
    expect(thrown.status).toBe('error');
    expect(await metric(/runtime_requests_total\{app="app_basic",kind="route",outcome="error"\} (\d+)/)).toBe(before + 1);
  });

  it('a 5xx the guest answers normally counts as error; a 4xx stays ok', async () => {
    const errors = await metric(/runtime_requests_total\{app="app_basic",kind="route",outcome="error"\} (\d+)/);
    const oks = await metric(/runtime_requests_total\{app="app_basic",kind="route",outcome="ok"\} (\d+)/);
    const failed = await rt.route('basic', '/status?code=503');
    const missing = await rt.route('basic', '/status?code=404');
    expect([failed.status, missing.status]).toEqual([503, 404]);
    // The header the control plane reads still says the body is the guest's.
    const line = await shippedLine((l) => l.requestId === failed.headers.get('x-request-id') && l.level === 'request');
    expect(line.request).toMatchObject({ outcome: 'error', httpStatus: 503 });
    const ok = await shippedLine((l) => l.requestId === missing.headers.get('x-request-id') && l.level === 'request');
    expect(ok).toMatchObject({ status: 'ok', request: { outcome: 'ok', httpStatus: 404 } });
    expect(await metric(/runtime_requests_total\{app="app_basic",kind="route",outcome="error"\} (\d+)/)).toBe(errors + 1);
    expect(await metric(/runtime_requests_total\{app="app_basic",kind="route",outcome="ok"\} (\d+)/)).toBe(oks + 1);
  });

  it('a delivery line names its type, install and delivery id', async () => {
    const app = (await rt.directory.resolve('basic'))!;
    const result = await rt.client.deliver(rt.delivery(app, { kind: 'lifecycle', envelope: { id: 'dlv_typed', type: 'post.created', install: { id: 'ins_42' } } }));
    expect(result.outcome).toBe('ok');
    const line = await shippedLine((l) => l.deliveryId === 'dlv_typed' && l.level === 'request');
    expect(line).toMatchObject({ kind: 'lifecycle', installId: 'ins_42', request: { label: 'post.created' } });
  });
});

describe('CPU-limit kills explained', () => {
  it('profiles the next request of a version stopped at its budget, at most once a minute, and ships the profile with its limit line', { timeout: 60_000 }, async () => {
    const spin = () => rt.route('basic', '/spin?n=2000000000');
    const first = await spin();
    expect(first.status).toBe(503);
    const plain = await shippedLine((l) => l.requestId === first.headers.get('x-request-id') && l.level === 'limit');
    expect(plain.message).toMatch(/CPU budget and was stopped\.$/);
    expect(plain.error).toMatchObject({ name: 'PlatformRuntimeCpuLimitError', frames: [expect.objectContaining({ file: 'app:///bundle.js' })] });
    expect(plain).not.toHaveProperty('profile');

    const second = await spin();
    expect(second.status).toBe(503);
    const explained = await shippedLine((l) => l.requestId === second.headers.get('x-request-id') && l.level === 'limit');
    const profile = JSON.parse((explained as { profile?: string }).profile!) as {
      nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children: number[]; hitCount: number }>;
      startTime: number; endTime: number; samples: number[]; timeDeltas: number[];
    };
    expect(profile.endTime).toBeGreaterThan(profile.startTime);
    expect(profile.samples.length).toBeGreaterThan(5);
    expect(profile.timeDeltas).toHaveLength(profile.samples.length);
    const ids = new Set(profile.nodes.map((n) => n.id));
    expect(profile.samples.every((s) => ids.has(s))).toBe(true);
    expect(profile.nodes.flatMap((n) => n.children).every((c) => ids.has(c))).toBe(true);
    // The guest's own code is in the tree, where the bundle says it is.
    const guest = profile.nodes.filter((n) => n.callFrame.url === 'app:///bundle.js');
    expect(guest.length).toBeGreaterThan(0);
    expect(guest.reduce((sum, n) => sum + n.hitCount, 0)).toBeGreaterThan(0);

    // Within the minute, the next stop of the version is not profiled again.
    const third = await spin();
    expect(third.status).toBe(503);
    const again = await shippedLine((l) => l.requestId === third.headers.get('x-request-id') && l.level === 'limit');
    expect(again).not.toHaveProperty('profile');
    // The app is served as before.
    expect((await rt.route('basic', '/status?code=204')).status).toBe(204);
  });
});

describe('secrets never leave the node', () => {
  it('redacts secret values in console lines and in the node\'s own line about a blocked fetch', async () => {
    const logged = await rt.route('basic', '/log?who=tester');
    const blocked = await rt.route('basic', `/fetch?url=${encodeURIComponent(`https://${SECRET_VALUE}.example/`)}`);
    expect(blocked.status).toBe(502);
    const warn = await shippedLine((l) => l.requestId === logged.headers.get('x-request-id') && l.level === 'warn');
    expect(warn.message).toBe('the secret is [redacted]');
    const note = await shippedLine((l) => l.requestId === blocked.headers.get('x-request-id') && l.level === 'limit');
    expect(note.message).toContain('Outbound request blocked');
    expect(note.message).toContain('[redacted]');
    await shippedLine((l) => l.requestId === blocked.headers.get('x-request-id') && l.level === 'request');
    expect(JSON.stringify(batches)).not.toContain(SECRET_VALUE);
    expect(batches.every((b) => typeof b.node === 'string' && b.node.length > 0)).toBe(true);
  });
});

describe('the shipper is bounded', () => {
  const line = (appId: string, message: string): AppLogInput => ({
    at: new Date(0).toISOString(), appId, version: 1, requestId: 'req_1', deliveryId: null, installId: null, kind: 'route', level: 'log', status: 'ok', message,
  });

  it('caps lines per app per second with one line saying how many were dropped, and cuts long lines', async () => {
    const received: Shipped[] = [];
    const server = await startServer((_req, res, body) => {
      received.push(JSON.parse(body) as Shipped);
      res.writeHead(204).end();
    });
    try {
      let t = 10_000;
      const shipper = createLogShipper({ url: server.url, secret: SECRET, nodeId: 'n1', flushMs: 1_000, linesPerSecond: 3, maxLineChars: 10, now: () => t, logger: pino({ level: 'silent' }) });
      shipper.append(Array.from({ length: 5 }, (_, i) => line('app_noisy', `line ${i}`)));
      shipper.append([line('app_quiet', 'x'.repeat(50))]);
      await shipper.flush();
      const lines = received.flatMap((b) => b.lines);
      expect(lines.filter((l) => l.appId === 'app_noisy').map((l) => l.message)).toEqual([
        'line 0', 'line 1', 'line 2', '2 log lines of this app were dropped on this node (more than 3 lines a second)',
      ]);
      expect(lines.find((l) => l.appId === 'app_quiet')!.message).toBe(`${'x'.repeat(10)}… (cut at 10 characters)`);
      // The next second has its own allowance.
      t += 1_000;
      shipper.append([line('app_noisy', 'next')]);
      await shipper.stop();
      expect(received.flatMap((b) => b.lines).at(-1)!.message).toBe('next');
    } finally {
      await server.close();
    }
  });

  it('keeps lines while the control plane is unreachable and sends them once it answers', async () => {
    let up = false;
    const received: Shipped[] = [];
    const server = await startServer((_req, res, body) => {
      if (!up) return void res.writeHead(503).end();
      received.push(JSON.parse(body) as Shipped);
      res.writeHead(204).end();
    });
    try {
      const shipper = createLogShipper({ url: server.url, secret: SECRET, nodeId: 'n1', flushMs: 1_000, linesPerSecond: 100, maxQueued: 2, now: () => 0, logger: pino({ level: 'silent' }) });
      shipper.append([line('app_a', 'one'), line('app_a', 'two'), line('app_a', 'three')]);
      await shipper.flush();
      expect(received).toEqual([]);
      up = true;
      await shipper.stop();
      // At most maxQueued wait: the oldest went first.
      expect(received.flatMap((b) => b.lines).map((l) => l.message)).toEqual(['two', 'three']);
    } finally {
      await server.close();
    }
  });
  it('calls a failing control plane only from its timer, not once per request (full batches wait while it fails)', async () => {
    // Before: every request past a full batch started a flush, each one a call and a copy of the
    // whole queue (the throughput bench fell from ~8,000 to ~3,000 requests a second).
    let calls = 0;
    const failing: typeof fetch = async () => {
      calls++;
      return new Response(null, { status: 503 });
    };
    const shipper = createLogShipper({ url: 'http://control-plane.invalid', secret: SECRET, nodeId: 'n1', flushMs: 3_600_000, linesPerSecond: 100_000, maxBatchLines: 10, now: () => 0, logger: pino({ level: 'silent' }), fetch: failing });
    // A full batch goes at once (one call), and the explicit flush tries again (a second).
    shipper.append(Array.from({ length: 10 }, (_, i) => line('app_a', `first ${i}`)));
    await shipper.flush();
    expect(calls).toBe(2);
    // Now failing: a hundred more requests start no call; only the next flush (the timer's) does.
    for (let i = 0; i < 100; i++) shipper.append([line('app_a', `more ${i}`)]);
    await shipper.flush();
    expect(calls).toBe(3);
  });
});
