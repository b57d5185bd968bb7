/**
 * Issue 6, end to end over real HTTP: a control plane and a runtime node on loopback wired both
 * ways, and two upstream servers named by test-only loopback host names (`allowed.test` is in the
 * app's egressHosts, `denied.test` is not). The app (test/fixtures/e2e/hosted-app.ts, bundled
 * with esbuild) is uploaded through the tooling endpoint and installed; then it answers a route at
 * `{runtime_url}/apps/{slug}/…`, runs signed deliveries (insert, a lifecycle event, a member's
 * click) whose handlers call the service's `/v0` without a token of their own (the runtime adds
 * the install token, which the guest never sees), reaches the allowed host, and is refused every
 * other destination.
 */
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeNode, loadConfig, type RuntimeNode } from '@platform/runtime';
import { click, view } from '../control-plane/blocks/setup.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';

const SLUG = 'e2e-hosted';

interface Upstream {
  port: number;
  seen: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** A loopback HTTP server that answers who it is and records what reached it. */
async function startUpstream(name: string): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server: Server = createHttpServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    if (req.url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`${name} upstream at ${req.url ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const cleanups: Array<() => Promise<unknown>> = [];
let stack: Stack;
let node: RuntimeNode;
let runtimeUrl: string;
let controlPlaneUrl: string;
let runtimeSecret: string;
let allowed: Upstream;
let denied: Upstream;
let ws: CreatedWorkspace;
let appId: string;
let installId: string;
let installToken: string;
let circleId: string;

beforeAll(async () => {
  allowed = await startUpstream('allowed');
  cleanups.push(() => allowed.close());
  denied = await startUpstream('denied');
  cleanups.push(() => denied.close());

  // The control plane's port is reserved first, so each side is configured with the other's address.
  const port = await freePort();
  controlPlaneUrl = `http://127.0.0.1:${port}`;
  runtimeSecret = randomBytes(24).toString('base64url');
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-runtime-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  node = createRuntimeNode({
    config: loadConfig({
      RUNTIME_SECRET: runtimeSecret, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: dataDir, RUNTIME_WORKERS: '1',
      CONTROL_PLANE_URL: controlPlaneUrl, RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'allowed.test,denied.test',
      // Evaluating the SDK-built bundle on a loaded two-core machine.
      RUNTIME_STARTUP_CPU_MS: '500', LOG_LEVEL: 'silent',
    }),
    logger: pino({ level: 'silent' }),
  });
  runtimeUrl = (await node.start()).url;
  cleanups.push(() => node.stop());
  stack = await startStack({
    env: { PORT: String(port), PUBLIC_URL: controlPlaneUrl, RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: runtimeSecret },
  });
  cleanups.push(() => stack.stop());

  ws = await stack.createWorkspace();
  const circle = await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true });
  expect(circle.status, JSON.stringify(circle.body)).toBe(201);
  circleId = circle.body.circle.id;
  const created = await ws.client.post('/apps', { name: 'End to end', slug: SLUG, hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;

  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/e2e/hosted-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${appId}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  expect(uploaded.body).toMatchObject({ target: 'production', manifest: { slug: SLUG, hosting: 'platform', egressHosts: ['allowed.test'] } });

  const consent = await ws.client.get(`/apps/${appId}/consent`);
  expect(consent.status, JSON.stringify(consent.body)).toBe(200);
  const installed = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  installId = installed.body.install.id;
  const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
  const minted = await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
  expect(minted.status, JSON.stringify(minted.body)).toBe(201);
  installToken = minted.body.token;
}, 90_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const route = (path: string) => fetch(`${runtimeUrl}/apps/${SLUG}${path}`);

async function egress(url: string): Promise<{ ok: boolean; status?: number; body?: string; error?: { name: string; message: string } }> {
  const res = await route(`/egress?url=${encodeURIComponent(url)}`);
  expect(res.status).toBe(200);
  return await res.json() as Awaited<ReturnType<typeof egress>>;
}

describe('a hosted app uploaded through the tooling endpoint', () => {
  it('answers a route at {runtime_url}/apps/{slug}/…; /platform is not reachable from outside', async () => {
    const res = await route('/hello');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'from the isolate', path: '/hello' });

    const forged = await fetch(`${runtimeUrl}/apps/${SLUG}/platform`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'platform-delivery': 'interactive', 'webhook-id': 'dlv_forged', 'webhook-signature': 'v1,AAAA' }, body: '{}',
    });
    expect(forged.status).toBe(404);
  });

  it('runs signed deliveries whose handlers call /v0 with the install token the runtime added, never seen by the guest', async () => {
    const api = stack.v0(installToken);
    const inserted = await api.post('/blocks', { type: 'probe', props: { title: 'E2E' }, circleId });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
    const blockId: string = inserted.body.id;
    expect((await view(ws.client, blockId)).summary).toBe('E2E: not asked');

    // block.created goes out as a lifecycle delivery; its handler writes through ctx.api (no token).
    expect(await stack.controlPlane.deliveries.worker.drain()).toBeGreaterThanOrEqual(1);
    expect((await api.get(`/blocks/${blockId}`)).body.state).toMatchObject({ lifecycle: 'seen probe' });

    // A member's click: a signed block.action delivery; the SDK verified it, the handler ran.
    const out = await click(ws.client, blockId, 'Who am I');
    expect(out).toMatchObject({ outcome: 'applied', block: { summary: 'E2E: asked' } });
    const { state } = (await api.get(`/blocks/${blockId}`)).body as { state: { caller: string; seen: string } };
    expect(JSON.parse(state.caller)).toEqual({
      status: 200,
      body: { kind: 'install', workspaceId: ws.workspace.id, appId, installId, installKind: 'workspace', scopes: ['blocks:write'] },
    });
    expect(JSON.parse(state.seen)).toEqual({
      rawBodyHasInstallToken: false, rawBodyHasTokenValue: false, envHasTokenValue: false, handlerInstallToken: false,
      // No signing secret reaches a hosted app: the runtime vouches for its deliveries (ctx.deliveryId).
      envKeys: ['PLATFORM_API_URL'],
    });

    await stack.controlPlane.blocks.settled();
    const { rows } = await stack.db.query<{ type: string; status: string }>(
      `select type, status from deliveries where install_id = $1 and type in ('block.action', 'block.created')`, [installId],
    );
    expect(rows.map((r) => `${r.type}:${r.status}`).sort()).toEqual(['block.action:delivered', 'block.created:delivered']);
  });

  it('calls an allowed host; is refused another host, IP literals, metadata, redirects inward and the control plane', async () => {
    const ok = await egress(`http://allowed.test:${allowed.port}/data`);
    expect(ok).toEqual({ ok: true, status: 200, body: 'allowed upstream at /data' });
    // Only the service's /v0 gets a token added; an allowed host gets nothing of the platform's.
    expect(allowed.seen.find((r) => r.path === '/data')?.headers.authorization).toBeUndefined();

    const refusals: Array<[string, RegExp]> = [
      [`http://denied.test:${denied.port}/`, /^Egress denied: The host denied\.test is not in the app's egressHosts/],
      [`http://127.0.0.1:${allowed.port}/`, /^Egress denied: IP addresses cannot be called/],
      ['http://169.254.169.254/latest/meta-data/', /^Egress denied: IP addresses cannot be called/],
      [`http://allowed.test:${allowed.port}/to-metadata`, /^Egress denied: IP addresses cannot be called/],
      [`${controlPlaneUrl}/internal/v1/apps/${SLUG}/production`, /^Egress denied: IP addresses cannot be called/],
      [`${controlPlaneUrl}/client/v1/circles`, /^Egress denied: IP addresses cannot be called/],
    ];
    for (const [url, reason] of refusals) {
      const out = await egress(url);
      expect(out.ok, url).toBe(false);
      expect(out.error?.name, url).toBe('TypeError');
      expect(out.error?.message, url).toMatch(reason);
    }
    expect(denied.seen).toEqual([]);

    // A route has no install to act for: its /v0 call carries no token.
    const anonymous = await (await route('/whoami')).json() as { status: number };
    expect(anonymous.status).toBe(401);

    const logs = await fetch(`${runtimeUrl}/internal/v1/apps/${appId}/logs?limit=100`, { headers: { authorization: `Bearer ${runtimeSecret}` } });
    const { entries } = await logs.json() as { entries: Array<{ level: string; message: string }> };
    const blocked = entries.filter((e) => e.level === 'limit' && e.message.startsWith('Outbound request blocked')).map((e) => /\((\S+)\)/.exec(e.message)?.[1]);
    expect(blocked.sort()).toEqual(['ip-literal', 'ip-literal', 'ip-literal', 'ip-literal', 'ip-literal', 'not-allowed']);
  });
});
