// Hosted ingress over real HTTP: /apps/{slug}/… and {slug}.{hosted_app_domain} run the app's latest
// production version; /platform is never reachable from outside; bundles and app records come from
// a stand-in control plane on loopback (hash-checked, cached).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, fixture, sha256, startRuntime, startServer, type TestRuntime, type TestServer } from './support/runtime.ts';

describe('path ingress', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startRuntime({ RUNTIME_INGRESS_MAX_BODY_BYTES: '1024' });
    await rt.deploy('basic', fixture('basic'), { env: { GREETING: 'hej' } });
  });
  afterAll(() => rt?.stop());

  it('routes /apps/{slug}/… to the app with the path relative to its root', async () => {
    const res = await rt.route('basic', '/echo?x=1', { method: 'POST', body: 'payload', headers: { 'x-custom': 'v', 'webhook-signature': 'forged' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const out = await res.json() as any;
    expect(out.method).toBe('POST');
    expect(new URL(out.url).pathname).toBe('/echo');
    expect(new URL(out.url).search).toBe('?x=1');
    expect(out.body).toBe('payload');
    expect(out.env.GREETING).toBe('hej');
    expect(out.kind).toBe('route');
    expect(out.headers['x-custom']).toBe('v');
    expect(out.headers['x-forwarded-prefix']).toBe('/apps/basic');
    expect(out.headers['x-forwarded-for']).toBe('127.0.0.1');
    // Delivery headers cannot be injected from outside.
    expect(out.headers['webhook-signature']).toBeUndefined();
  });

  it('never serves /platform from outside', async () => {
    const res = await rt.route('basic', '/platform', { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as any)._tag).toBe('PlatformApiNotFoundError');
  });

  it('answers 404 for an unknown app', async () => {
    const res = await rt.route('nobody', '/');
    expect(res.status).toBe(404);
    expect(((await res.json()) as any)._tag).toBe('PlatformAppNotFoundError');
  });

  it('refuses bodies over the ingress cap with 413', async () => {
    const res = await rt.route('basic', '/echo', { method: 'POST', body: 'x'.repeat(2000) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any)._tag).toBe('PlatformApiPayloadTooLargeError');
  });

  it('passes the app\'s status and headers but not headers posing as the runtime\'s', async () => {
    const res = await rt.route('basic', '/status?code=418');
    expect(res.status).toBe(418);
    expect(res.headers.get('x-app')).toBe('yes');
    expect(res.headers.get('platform-runtime-outcome')).toBeNull();
  });

  it('serves paths under /mcp as MCP requests', async () => {
    const res = await rt.route('basic', '/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1 }) });
    expect(((await res.json()) as any).result.kind).toBe('mcp');
  });

  it('answers from the new version once the directory points to it', async () => {
    await rt.deploy('versioned', 'export default { fetch() { return new Response("v1") } }');
    expect(await (await rt.route('versioned', '/')).text()).toBe('v1');
    await rt.deploy('versioned', 'export default { fetch() { return new Response("v2") } }', { version: 2 });
    expect(await (await rt.route('versioned', '/')).text()).toBe('v2');
  });
});

describe('host-name ingress', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startRuntime({ RUNTIME_HOSTED_APP_DOMAIN: 'apps.test' });
    await rt.deploy('basic', fixture('basic'));
  });
  afterAll(() => rt?.stop());

  it('routes {slug}.{hosted_app_domain} to the app, every path included', async () => {
    const { request } = await import('node:http');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${rt.url}/echo`, { headers: { host: 'basic.apps.test' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => { text += c.toString(); });
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    const out = JSON.parse(body);
    expect(out.url).toBe('https://basic.apps.test/echo');
  });
});

describe('bundles and apps from the control plane', () => {
  let rt: TestRuntime;
  let cp: TestServer;
  const source = 'export default { fetch() { return new Response("from the control plane") } }';
  const sha = sha256(source);
  const bundles = new Map([[sha, source]]);

  beforeAll(async () => {
    cp = await startServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${SECRET}`) return void res.writeHead(401).end();
      const bundle = bundles.get(req.url?.replace('/internal/v1/bundles/', '') ?? '');
      if (bundle !== undefined) return void res.writeHead(200).end(bundle);
      if (req.url === '/internal/v1/apps/remote/production') {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ appId: 'app_remote', slug: 'remote', version: 3, sha256: sha, env: {}, secretEnvKeys: [], egressHosts: [], baseUrl: null }));
      }
      res.writeHead(404).end();
    });
    // No directory injected: the node resolves apps through the control plane.
    rt = await startRuntime({ CONTROL_PLANE_URL: cp.url, RUNTIME_DIRECTORY_TTL_MS: '60000' }, { directory: undefined });
  });
  afterAll(async () => {
    await rt?.stop();
    await cp?.close();
  });

  it('resolves the slug and fetches the bundle with the shared secret, then caches both', async () => {
    const res = await rt.route('remote', '/');
    expect(await res.text()).toBe('from the control plane');
    // Only the directory's and the bundle store's reads count: the node's log shipper posts its
    // batches to the same control plane whenever it flushes, which a loaded machine may time anywhere.
    const lookups = () => cp.hits.filter((h) => h.url.startsWith('/internal/v1/apps/') || h.url.startsWith('/internal/v1/bundles/')).length;
    const before = lookups();
    expect(before).toBeGreaterThanOrEqual(2);
    expect(await (await rt.route('remote', '/')).text()).toBe('from the control plane');
    expect(lookups()).toBe(before);
    expect(cp.hits.every((h) => h.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
  });

  it('refuses a bundle whose bytes do not match their sha256', async () => {
    const genuine = 'export default { fetch() { return new Response("genuine") } }';
    const wanted = sha256(genuine);
    bundles.set(wanted, genuine.replace('genuine', 'tampered'));
    const res = await fetch(`${rt.url}/internal/v1/manifest`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` }, body: JSON.stringify({ sha256: wanted }) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any)._tag).toBe('PlatformAppBundleInvalidError');
  });
});
