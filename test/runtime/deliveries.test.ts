// The internal delivery API over real HTTP: deliveries arrive signed by the control plane (the node
// holds no signing secret: none reaches the guest's env), the install token travels apart and is
// added only to the app's own /v0 calls; strict input; the guest's answer passes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '@platform/sdk';
import { RuntimeClientError, type ResolvedApp } from '@platform/runtime';
import { SECRET, SIGNING_SECRET, fixture, startRuntime, startServer, type TestRuntime, type TestServer } from './support/runtime.ts';

let rt: TestRuntime;
let api: TestServer;
let app: ResolvedApp;
const TOKEN = 'platapp_install_token_value';

const envelope = (data: Record<string, unknown> = {}) => ({
  id: 'dlv_1', type: 'block.action', timestamp: '2026-01-01T00:00:00Z', app: { id: 'app_basic', slug: 'basic', version: 1 },
  install: { id: 'ins_1', workspaceId: 'ws_1', kind: 'workspace' }, installToken: { token: TOKEN, expiresAt: '2026-01-01T01:00:00Z' },
  locale: 'en', timeZone: 'UTC', data,
});

beforeAll(async () => {
  api = await startServer((req, res) => {
    if (req.url === '/partner') return void res.writeHead(200).end('partner data');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  rt = await startRuntime({ RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'api.allowed.test' });
  app = await rt.deploy('basic', fixture('basic'), { baseUrl: api.url, egressHosts: ['api.allowed.test'] });
});
afterAll(async () => {
  await rt?.stop();
  await api?.close();
});

describe('POST /internal/v1/deliveries', () => {
  it('delivers the signed envelope at /platform as signed, without the install token or any signing secret', async () => {
    const request = rt.delivery(app, { envelope: envelope() });
    const result = await rt.client.deliver(request);
    expect(result.outcome).toBe('ok');
    expect(result.status).toBe(200);
    const out = JSON.parse(result.text());
    expect(out.body).toBe(request.body);
    expect(out.envelope).not.toHaveProperty('installToken');
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    expect(out.envelope.id).toBe('dlv_1');
    expect(out.headers['webhook-id']).toBe('dlv_1');
    expect(out.headers['platform-delivery']).toBe('interactive');
    expect(out.headers['platform-install']).toBe('ins_1');
    expect(out.ctx).toEqual({ kind: 'interactive', deliveryId: 'dlv_1' });
    expect(out.envKeys).not.toContain('PLATFORM_SIGNING_SECRET');
    // The guest sees the control plane's signature, which checks out with the platform's verifier.
    const verdict = await verifyDelivery({ headers: out.headers, body: out.body, secret: SIGNING_SECRET });
    expect(verdict.ok).toBe(true);
    expect(result.requestId).toMatch(/^req_/);
    expect(result.cpuMs).toBeGreaterThan(0);
  });

  it('refuses a delivery without its signed headers', async () => {
    const request = rt.delivery(app, { envelope: envelope() });
    const { 'webhook-signature': _s, ...unsigned } = request.headers;
    await expect(rt.client.deliver({ ...request, headers: unsigned })).rejects.toMatchObject({ status: 400, body: { _tag: 'PlatformApiInvalidRequestError', issues: [{ path: ['headers', 'webhook-signature'] }] } });
  });

  it('marks lifecycle deliveries as lifecycle', async () => {
    const result = await rt.client.deliver(rt.delivery(app, { kind: 'lifecycle', envelope: { ...envelope(), type: 'app.installed' } }));
    expect(JSON.parse(result.text()).headers['platform-delivery']).toBe('lifecycle');
  });

  it('adds the install token to the app\'s own /v0 calls only', async () => {
    api.hits.length = 0;
    const result = await rt.client.deliver(rt.delivery(app, { envelope: envelope({ callApi: true }) }));
    expect(JSON.parse(result.text()).api).toEqual({ status: 200, body: '{"ok":true}' });
    expect(api.hits).toHaveLength(1);
    expect(api.hits[0]!.url).toBe('/v0/blocks/b1');
    expect(api.hits[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });


  it('calls an allowed host without the install token', async () => {
    api.hits.length = 0;
    const result = await rt.client.deliver(rt.delivery(app, { envelope: { ...envelope({ fetch: `http://api.allowed.test:${api.port}/partner` }), id: 'dlv_partner' } }));
    expect(JSON.parse(result.text()).fetched).toEqual({ status: 200, body: 'partner data' });
    expect(api.hits[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses hosts outside egressHosts and says so in the app log', async () => {
    const result = await rt.client.deliver(rt.delivery(app, { envelope: { ...envelope({ fetch: 'https://elsewhere.example/x' }), id: 'dlv_denied' } }));
    expect(JSON.parse(result.text()).fetched.error).toMatch(/not in the app's egressHosts/);
    const logs = await rt.client.appLogs(app.appId);
    expect(logs.some((l) => l.deliveryId === 'dlv_denied' && /blocked \(not-allowed\)/.test(l.message))).toBe(true);
  });

  it('posts MCP requests to /mcp with the MCP kind', async () => {
    const result = await rt.client.deliver(rt.delivery(app, { kind: 'mcp', envelope: { jsonrpc: '2.0', id: 7, method: 'tools/list' } }));
    expect(JSON.parse(result.text())).toEqual({ jsonrpc: '2.0', id: 7, result: { kind: 'mcp' } });
  });

  it('passes the guest\'s status and headers through, never its runtime headers', async () => {
    const res = await fetch(`${rt.url}/internal/v1/deliveries`, {
      method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify(rt.delivery(app, { kind: 'mcp', envelope: {} })),
    });
    expect(res.headers.get('platform-runtime-outcome')).toBe('ok');
  });

  it('answers a guest failure with a tagged error and the outcome header', async () => {
    const failing = await rt.deploy('failing', 'export default { fetch() { throw new Error("no") } }');
    const result = await rt.client.deliver(rt.delivery(failing, { envelope: envelope() }));
    expect(result.outcome).toBe('error');
    expect(result.status).toBe(500);
    expect(result.error?._tag).toBe('PlatformRuntimeGuestError');
  });

  it('needs the shared secret', async () => {
    const res = await fetch(`${rt.url}/internal/v1/deliveries`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    const wrong = await fetch(`${rt.url}/internal/v1/deliveries`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as any)._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('refuses unknown fields and malformed input with issues', async () => {
    const body = { ...rt.delivery(app, { envelope: envelope() }), extra: true };
    const res = await fetch(`${rt.url}/internal/v1/deliveries`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` }, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    const err = await res.json() as any;
    expect(err._tag).toBe('PlatformApiInvalidRequestError');
    expect(err.issues.length).toBeGreaterThan(0);
    await expect(rt.client.deliver(rt.delivery(app, { envelope: { noId: true } }))).rejects.toBeInstanceOf(RuntimeClientError);
  });

  it('answers 404 for a bundle the node does not have and cannot fetch', async () => {
    const missing = { ...app, sha256: 'a'.repeat(64) };
    await expect(rt.client.deliver(rt.delivery(missing, { envelope: envelope() }))).rejects.toMatchObject({ status: 404 });
  });
});
