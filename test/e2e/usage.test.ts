/**
 * Usage over time (issue 25, item 4), end to end over real HTTP: a control plane and a runtime
 * node on loopback wired both ways, a hosted app (test/fixtures/usage/hosted-app.ts) that answers
 * routes of known outcomes, makes one outbound call to a loopback upstream, and on install makes
 * known storage operations and sends one queue message. The usage API then answers exactly those
 * counts, per minute and per hour, as JSON and as CSV; a node's flush retried with its key counts
 * once; windows are refused at one past each limit; pruning keeps each step its retention.
 */
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeNode, loadConfig, type RuntimeNode } from '@platform/runtime';
import { freePort } from '../helpers/npm-start.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';

const SLUG = 'e2e-usage';
const UPSTREAM_BYTES = 1234;
const SENT = 'eleven char';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const cleanups: Array<() => Promise<unknown>> = [];
let stack: Stack;
let node: RuntimeNode;
let runtimeUrl: string;
let runtimeSecret: string;
let upstreamPort: number;
let ws: CreatedWorkspace;
let appId: string;
let installId: string;
let startedAt: number;

beforeAll(async () => {
  const upstream: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(UPSTREAM_BYTES, 7)));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
  cleanups.push(() => new Promise<void>((resolve) => { upstream.closeAllConnections(); upstream.close(() => resolve()); }));

  const port = await freePort();
  const controlPlaneUrl = `http://127.0.0.1:${port}`;
  runtimeSecret = randomBytes(24).toString('base64url');
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-usage-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  node = createRuntimeNode({
    config: loadConfig({
      RUNTIME_SECRET: runtimeSecret, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: dataDir, RUNTIME_WORKERS: '1',
      CONTROL_PLANE_URL: controlPlaneUrl, RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'allowed.test', RUNTIME_STARTUP_CPU_MS: '500', LOG_LEVEL: 'silent',
    }),
    logger: pino({ level: 'silent' }),
  });
  runtimeUrl = (await node.start()).url;
  cleanups.push(() => node.stop());
  stack = await startStack({ env: { PORT: String(port), PUBLIC_URL: controlPlaneUrl, RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: runtimeSecret } });
  cleanups.push(() => stack.stop());
  // The node counts on the real clock; the control plane's clock is set to it (and moved by hand later).
  startedAt = Date.now();
  stack.clock.set(startedAt);

  ws = await stack.createWorkspace();
  const created = await ws.client.post('/apps', { name: 'Usage end to end', slug: SLUG, hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/usage/hosted-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${appId}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const consent = await ws.client.get(`/apps/${appId}/consent`);
  const installed = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  installId = installed.body.install.id;
}, 90_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const route = (path: string, init?: RequestInit) => fetch(`${runtimeUrl}/apps/${SLUG}${path}`, init);

/** The window that holds every count of the test: the node's minutes run on while the control plane's clock stands. */
const wide = (step: 'minute' | 'hour') => `from=${new Date(startedAt - HOUR).toISOString()}&to=${new Date(Date.now() + (step === 'minute' ? 60_000 : HOUR)).toISOString()}&step=${step}`;

async function usage(query: string): Promise<any> {
  const got = await stack.v0(ws.apiKey).get(`/apps/${appId}/usage?${query}`);
  expect(got.status, JSON.stringify(got.body)).toBe(200);
  return got.body;
}

/** The guest CPU of the app's requests as their log lines report it, in µs as the meter rounds each. */
function loggedCpuUs(): number {
  return node.appLog.read(appId).filter((l) => l.level === 'request').reduce((sum, l) => sum + Math.round(l.request!.cpuMs * 1000), 0);
}

describe('usage over time', () => {
  let expected: Record<string, unknown>;

  it('counts a hosted app\'s requests, CPU, egress, deliveries, storage and queue exactly', async () => {
    for (let i = 0; i < 3; i++) expect((await route('/ok')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await route('/fail')).status).toBe(500);
    expect((await route('/spin')).status).toBeGreaterThanOrEqual(500);
    const egress = await route(`/egress?to=${encodeURIComponent(`http://allowed.test:${upstreamPort}/in`)}`, { method: 'POST', body: SENT });
    expect(await egress.json()).toEqual({ status: 200, bytes: UPSTREAM_BYTES });
    // app.installed (storage: one write, two reads; one queue send), then the queue's message.
    const first = await stack.controlPlane.deliveries.worker.drain();
    expect(first + (first < 2 ? await stack.controlPlane.deliveries.worker.drain() : 0)).toBe(2);
    const { rows: [space] } = await stack.db.query<{ bytes: number }>('select bytes from app_storage_spaces where app_id = $1', [appId]);
    expect(space!.bytes).toBeGreaterThan(0);

    await node.flushUsage();
    await stack.controlPlane.apps.usageRecorder.flush();
    expect((await stack.controlPlane.apps.usageLoop.tick()).sampled).toBe(2);

    expected = {
      // Routes: 3 ok and the egress route; deliveries run on the node: app.installed and the queue message.
      requests: { ok: 6, error: 2, cpuLimit: 1, memoryLimit: 0, deadline: 0, crashed: 0 },
      deliveries: { succeeded: 2, failed: 0 },
      cpuUs: loggedCpuUs(),
      egress: { calls: 1, bytesOut: SENT.length, bytesIn: UPSTREAM_BYTES },
      storage: { bytes: space!.bytes, reads: 2, writes: 1 },
      queue: { sent: 1, delivered: 1 },
    };
    expect(expected.cpuUs).toBeGreaterThan(0);
    const minutes = await usage(wide('minute'));
    expect(minutes.totals).toEqual(expected);
    expect(minutes.points.length).toBeGreaterThanOrEqual(60);
    // The control plane's counts sit in the minute of its clock.
    const atStart = minutes.points.find((p: any) => p.at === new Date(Math.floor(startedAt / 60_000) * 60_000).toISOString());
    expect(atStart).toMatchObject({ deliveries: { succeeded: 2, failed: 0 }, storage: { bytes: space!.bytes, reads: 2, writes: 1 }, queue: { sent: 1, delivered: 1 } });

    // One install: its deliveries' requests and the control plane's counts, not the routes'.
    const one = await usage(`${wide('minute')}&install=${installId}`);
    expect(one.totals).toMatchObject({ requests: { ok: 2, error: 0, cpuLimit: 0 }, deliveries: { succeeded: 2 }, egress: { calls: 0 }, storage: { reads: 2, writes: 1 }, queue: { sent: 1, delivered: 1 } });
  }, 60_000);

  it('rolls minutes up to the hour exactly', async () => {
    const hours = await usage(wide('hour'));
    expect(hours.totals).toEqual(expected);
    const minutes = await usage(wide('minute'));
    const sum = (points: any[], pick: (p: any) => number) => points.reduce((n, p) => n + pick(p), 0);
    expect(sum(hours.points, (p) => p.cpuUs)).toBe(sum(minutes.points, (p) => p.cpuUs));
    expect(sum(hours.points, (p) => p.requests.ok)).toBe(sum(minutes.points, (p) => p.requests.ok));
  });

  it('answers the same series as CSV', async () => {
    const json = await usage(wide('minute'));
    const res = await stack.fetch(`/v0/apps/${appId}/usage?${wide('minute')}&format=csv`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = (await res.text()).trimEnd().split('\r\n');
    expect(header).toBe('at,requests_ok,requests_error,requests_cpu_limit,requests_memory_limit,requests_deadline,requests_crashed,deliveries_succeeded,deliveries_failed,'
      + 'cpu_us,egress_calls,egress_bytes_out,egress_bytes_in,storage_bytes,storage_reads,storage_writes,queue_sent,queue_delivered');
    expect(rows.length).toBe(json.points.length);
    rows.forEach((row, i) => {
      const p = json.points[i];
      expect(row).toBe([p.at, p.requests.ok, p.requests.error, p.requests.cpuLimit, p.requests.memoryLimit, p.requests.deadline, p.requests.crashed,
        p.deliveries.succeeded, p.deliveries.failed, p.cpuUs, p.egress.calls, p.egress.bytesOut, p.egress.bytesIn, p.storage.bytes ?? '',
        p.storage.reads, p.storage.writes, p.queue.sent, p.queue.delivered].join(','));
    });
  });

  it('counts a node\'s flush once when it is retried with the same key', async () => {
    const flush = { key: `retry-${randomBytes(6).toString('hex')}`, node: 'test', rows: [{
      appId, version: 1, installId: null, minute: Math.floor(startedAt / 60_000) * 60_000,
      requestsOk: 5, requestsError: 0, requestsCpuLimit: 0, requestsMemoryLimit: 0, requestsDeadline: 0, requestsCrashed: 0, cpuUs: 7, egressCalls: 0, egressBytesOut: 0, egressBytesIn: 0,
    }] };
    for (let i = 0; i < 2; i++) {
      const res = await stack.fetch('/internal/v1/usage', { method: 'POST', headers: { authorization: `Bearer ${runtimeSecret}`, 'content-type': 'application/json' }, body: JSON.stringify(flush) });
      expect(res.status).toBe(204);
    }
    const after = await usage(wide('minute'));
    expect(after.totals.requests.ok).toBe(6 + 5);
    expect(after.totals.cpuUs).toBe((expected.cpuUs as number) + 7);
  });

  it('takes a flush of 5,000 rows and refuses one of 5,001', async () => {
    const post = (rows: number) => stack.fetch('/internal/v1/usage', {
      method: 'POST', headers: { authorization: `Bearer ${runtimeSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: `limit-${rows}-${randomBytes(4).toString('hex')}`, node: 'test', rows: Array.from({ length: rows }, (_, i) => ({
        appId, version: 1, installId: `ins_limit_${i}`, minute: Math.floor(startedAt / 60_000) * 60_000,
        requestsOk: 0, requestsError: 0, requestsCpuLimit: 0, requestsMemoryLimit: 0, requestsDeadline: 0, requestsCrashed: 0, cpuUs: 0, egressCalls: 0, egressBytesOut: 0, egressBytesIn: 0,
      })) }),
    });
    expect((await post(5_000)).status).toBe(204);
    const refused = await post(5_001);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['rows'] });
    // Rows of zeros change no total.
    expect((await usage(wide('minute'))).totals.requests.ok).toBe(6 + 5);
  });

  it('refuses windows one past each limit, with the parameter and why, and takes them at the limit', async () => {
    const now = stack.clock.now();
    const at = (ms: number) => new Date(ms).toISOString();
    const refused = async (query: string, code: string) => {
      const got = await stack.v0(ws.apiKey).get(`/apps/${appId}/usage?${query}`);
      expect(got.status, query).toBe(400);
      expect(got.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['from'], issues: [{ path: ['from'], code }] });
    };
    await usage(`step=minute&from=${at(now - DAY)}&to=${at(now)}`);
    await refused(`step=minute&from=${at(now - DAY - 1)}&to=${at(now)}`, 'window_too_long');
    await usage(`step=minute&from=${at(now - DAY)}&to=${at(now - HOUR)}`);
    await refused(`step=minute&from=${at(now - DAY - 1)}&to=${at(now - HOUR)}`, 'over_retention');
    await usage(`step=hour&from=${at(now - 90 * DAY)}&to=${at(now)}`);
    await refused(`step=hour&from=${at(now - 90 * DAY - 1)}&to=${at(now)}`, 'window_too_long');
    await usage(`step=minute&from=${at(now)}&to=${at(now)}`);
    await refused(`step=minute&from=${at(now + 1)}&to=${at(now)}`, 'window_reversed');
  });

  it('shows an admin the workspace\'s installs and the operator every app; members are refused', async () => {
    const admin = await ws.client.get(`/apps/${appId}/usage?${wide('minute')}`);
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    expect(admin.body.totals).toMatchObject({ deliveries: { succeeded: 2 }, storage: { reads: 2, writes: 1 } });
    // The routes' requests belong to no install of the workspace.
    expect(admin.body.totals.requests.ok).toBe(2);
    const operator = await ws.client.get(`/operator/usage?${wide('minute')}`);
    expect(operator.status, JSON.stringify(operator.body)).toBe(200);
    expect(operator.body.apps.find((a: any) => a.appId === appId).totals.requests.ok).toBe(11);
    const member = await stack.addMember(ws.apiKey, { role: 'member' });
    expect((await member.client.get(`/operator/usage`)).status).toBe(403);
    expect((await member.client.get(`/apps/${appId}/usage`)).status).toBe(403);
  });

  it('keeps minutes 24 hours and hours 90 days', async () => {
    // Rows older than the step's retention (the tick's own storage sample is of its minute).
    const older = async (step: string, ms: number) => (await stack.db.query<{ n: number }>(
      'select count(*)::int as n from app_usage where app_id = $1 and step = $2 and bucket < $3', [appId, step, new Date(stack.clock.now() - ms)])).rows[0]!.n;
    stack.clock.set(Date.now() + DAY - HOUR);
    await stack.controlPlane.apps.usageLoop.tick();
    expect(await older('minute', DAY - 2 * HOUR)).toBeGreaterThan(0);
    stack.clock.set(Date.now() + DAY + 2 * 60_000);
    await stack.controlPlane.apps.usageLoop.tick();
    expect(await older('minute', DAY)).toBe(0);
    expect(await older('hour', DAY)).toBeGreaterThan(0);
    stack.clock.set(Date.now() + 90 * DAY + 2 * HOUR);
    await stack.controlPlane.apps.usageLoop.tick();
    expect(await older('hour', 90 * DAY)).toBe(0);
  });
});
