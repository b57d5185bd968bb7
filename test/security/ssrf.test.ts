// Egress from guest code: only allow-listed host names over https (plus the test-only loopback
// name), never an internal address however it is spelled, resolved, or redirected to; bounded
// counts, redirects, bodies and time. The neighbour app is served throughout every attempt.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startRuntime, startServer, whileServing, type TestRuntime, type TestServer } from '../runtime/support/runtime.ts';
import { startTlsServer, trustTestCertificate } from '../runtime/support/tls.ts';

let rt: TestRuntime;
let upstream: TestServer;
let tlsUpstream: TestServer;
let untrust: () => void;
let allowed: string;

function fakeDns(hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void): void {
  if (hostname === 'rebind.test') return callback(null, [{ address: '10.0.0.7', family: 4 }]);
  if (hostname === 'mixed.test') return callback(null, [{ address: '93.184.216.34', family: 4 }, { address: '::1', family: 6 }]);
  if (hostname === 'nat64.test') return callback(null, [{ address: '64:ff9b::a9fe:a9fe', family: 6 }]);
  dnsLookup(hostname, { all: true }, callback);
}

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    const url = req.url ?? '';
    const chain = /^\/chain\/(\d+)$/.exec(url);
    if (url === '/ok') return void res.writeHead(200).end('upstream ok');
    if (url.startsWith('/headers')) return void res.writeHead(200).end('seen');
    if (url === '/gzip') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('hello gzip'));
    if (url === '/bomb') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(4 * 1024 * 1024)));
    if (url === '/to-loopback') return void res.writeHead(302, { location: `http://127.0.0.1:${upstream.port}/ok` }).end();
    if (url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (url === '/to-localhost') return void res.writeHead(307, { location: 'https://localhost/admin' }).end();
    if (url === '/to-self') return void res.writeHead(301, { location: '/ok' }).end();
    if (url === '/to-tls-port') return void res.writeHead(302, { location: `https://api.allowed.test:${tlsUpstream.port}/ok` }).end();
    if (chain !== null) {
      const n = Number(chain[1]);
      return void (n === 0 ? res.writeHead(200).end('end of chain') : res.writeHead(302, { location: `/chain/${n - 1}` }).end());
    }
    if (url === '/hang') return; // never answers
    res.writeHead(404).end();
  });
  // https on loopback: a listed host on a port other than 443 (names under allowed.test resolve to it).
  tlsUpstream = await startServerTls();
  untrust = trustTestCertificate();
  rt = await startRuntime({
    RUNTIME_WORKERS: '1',
    RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'api.allowed.test,wild.allowed.test',
    RUNTIME_EGRESS_MAX_RESPONSE_BYTES: '65536',
    RUNTIME_EGRESS_TIMEOUT_MS: '500',
  }, { lookup: fakeDns });
  allowed = `http://api.allowed.test:${upstream.port}`;
  await rt.deploy('basic', fixture('basic'), {
    egressHosts: ['api.allowed.test', 'localhost', '169.254.169.254', '127.0.0.1', 'rebind.test', 'mixed.test', 'nat64.test', 'plain.test', 'evil.example.'],
  });
  await rt.deploy('egress', fixture('egress'), { egressHosts: ['api.allowed.test'] });
  await rt.deploy('ports', fixture('egress'), { egressHosts: [`api.allowed.test:${tlsUpstream.port}`, `*.allowed.test:${tlsUpstream.port}`] });
  await rt.deploy('neighbour', fixture('neighbour'));
});
afterAll(async () => {
  await rt?.stop();
  untrust?.();
  await upstream?.close();
  await tlsUpstream?.close();
});

function startServerTls(): Promise<TestServer> {
  return startTlsServer((req, res) => void (req.url === '/ok' ? res.writeHead(200).end('tls ok') : res.writeHead(404).end()));
}

async function guestFetch(url: string, path = '/fetch'): Promise<{ status?: number; body?: string; error?: string; redirected?: boolean; encoding?: string | null; results?: Array<number | string> }> {
  const { result, failed, served } = await whileServing(rt, 'neighbour', async () => {
    const res = await rt.route('basic', `${path}?url=${encodeURIComponent(url)}${path === '/fetch' ? '' : '&n=51'}`);
    return await res.json() as Awaited<ReturnType<typeof guestFetch>>;
  });
  expect(failed).toEqual([]);
  expect(served).toBeGreaterThan(0);
  return result;
}

describe('internal addresses in every spelling', () => {
  it.each([
    ['decimal IPv4', 'https://2130706433/'],
    ['octal IPv4', 'https://0177.0.0.1/'],
    ['hex IPv4', 'https://0x7f.0x0.0x0.0x1/'],
    ['short IPv4', 'https://127.1/'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/'],
    ['the unspecified address', 'https://0.0.0.0/'],
    ['cloud metadata (even when listed)', 'https://169.254.169.254/latest/meta-data/'],
    ['loopback (even when listed)', 'https://127.0.0.1/'],
  ])('%s is refused', async (_what, url) => {
    const out = await guestFetch(url);
    expect(out.error).toMatch(/Egress denied: IP addresses cannot be called/);
  });

  it.each([
    ['a name that resolves to loopback', 'https://localhost/'],
    ['a name that resolves to a private address', 'https://rebind.test/'],
    ['a name with one public and one loopback address', 'https://mixed.test/'],
    ['a name that resolves to a NAT64 form of the metadata address', 'https://nat64.test/'],
  ])('%s is refused at connect time', async (_what, url) => {
    const out = await guestFetch(url);
    expect(out.error).toMatch(/Egress denied: .*(resolves to a forbidden address|refused)/);
  });
});

describe('redirects', () => {
  it.each([
    ['to a loopback address', '/to-loopback', /IP addresses cannot be called/],
    ['to the metadata address', '/to-metadata', /IP addresses cannot be called/],
    ['to a name resolving to loopback', '/to-localhost', /forbidden address/],
  ])('%s are checked hop by hop and refused', async (_what, path, reason) => {
    expect((await guestFetch(`${allowed}${path}`)).error).toMatch(reason);
  });

  it('are followed on allowed hosts, at most five', async () => {
    expect(await guestFetch(`${allowed}/to-self`)).toMatchObject({ status: 200, body: 'upstream ok', redirected: true });
    expect(await guestFetch(`${allowed}/chain/5`)).toMatchObject({ status: 200, body: 'end of chain' });
    expect((await guestFetch(`${allowed}/chain/6`)).error).toMatch(/More than 5 redirects/);
  });
});

describe('names and schemes', () => {
  it.each([
    ['userinfo naming the allowed host', 'https://api.allowed.test:1@evil.example/', /user name or password/],
    ['userinfo in front of an internal address', 'http://api.allowed.test@127.0.0.1/', /user name or password/],
    ['a fragment hiding the real host', 'https://evil.example.com#@api.allowed.test/', /not in the app's egressHosts/],
    ['a backslash hiding the real host', 'https://evil.example.com\\@api.allowed.test/', /not in the app's egressHosts/],
    ['a host not on the list', 'https://not-listed.example/', /not in the app's egressHosts/],
    ['plain http to a listed host', 'http://plain.test/', /Only https: URLs/],
  ])('%s is refused', async (_what, url, reason) => {
    expect((await guestFetch(url)).error).toMatch(reason);
  });

  it('compares host names case-insensitively, ignoring a trailing dot', async () => {
    expect(await guestFetch(`http://API.Allowed.TEST.:${upstream.port}/ok`)).toMatchObject({ status: 200, body: 'upstream ok' });
  });
});

/** The egress app's outbound request as given; the upstream's record of it when it arrived. */
async function guestRequest(init: { url: string; method?: string; headers?: Array<[string, string]>; body?: string }) {
  const before = upstream.hits.length;
  const { result, failed, served } = await whileServing(rt, 'neighbour', async () => {
    const res = await rt.route('egress', '/fetch', { method: 'POST', body: JSON.stringify(init) });
    return await res.json() as { status?: number; body?: string; error?: string };
  });
  expect(failed).toEqual([]);
  expect(served).toBeGreaterThan(0);
  return { result, hits: upstream.hits.slice(before) };
}

describe('request headers the guest may not send', () => {
  const forged: Array<[string, string]> = [
    ['Forwarded', 'for=10.0.0.1;host=admin.internal;proto=http'],
    ['X-Forwarded-For', '10.0.0.1'],
    ['X-Forwarded-Host', 'admin.internal'],
    ['X-Forwarded-Proto', 'http'],
    ['X-Forwarded-Port', '80'],
    ['X-Forwarded-Prefix', '/internal'],
    ['Via', '1.1 trusted-edge'],
    ['X-Real-IP', '10.0.0.1'],
    ['True-Client-IP', '10.0.0.1'],
    ['Connection', 'keep-alive, X-Hop-Secret'],
    ['X-Hop-Secret', 'must not cross'],
    ['Keep-Alive', 'timeout=600'],
    ['Proxy-Authorization', 'Basic c2VjcmV0'],
    ['Proxy-Connection', 'keep-alive'],
    ['TE', 'trailers'],
    ['Trailer', 'x-checksum'],
    ['Transfer-Encoding', 'chunked'],
    ['Upgrade', 'websocket'],
    ['Host', 'admin.internal'],
  ];

  it.each([['GET', undefined], ['POST', 'payload']])('never reach the upstream (%s), while the app\'s own headers and body do', async (method, body) => {
    const { result, hits } = await guestRequest({
      url: `${allowed}/headers`, method, body,
      headers: [...forged, ['X-App-Header', 'kept'], ['Authorization', 'Bearer app-own'], ['Content-Type', 'text/plain']],
    });
    expect(result).toEqual({ status: 200, body: 'seen' });
    expect(hits).toHaveLength(1);
    const seen = hits[0]!;
    for (const name of ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-prefix', 'via', 'x-real-ip', 'true-client-ip', 'x-hop-secret', 'keep-alive', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'upgrade']) {
      expect(seen.headers[name], name).toBeUndefined();
    }
    // What the proxy writes about its own connection is its own, never the guest's words.
    expect(seen.headers.connection ?? '').not.toMatch(/hop-secret/i);
    expect(seen.headers['transfer-encoding']).toBeUndefined();
    expect(seen.headers.host).toBe(`api.allowed.test:${upstream.port}`);
    expect(seen.headers['x-app-header']).toBe('kept');
    expect(seen.headers.authorization).toBe('Bearer app-own');
    expect(seen.method).toBe(method);
    expect(seen.body).toBe(body ?? '');
    if (body !== undefined) expect(seen.headers['content-length']).toBe(String(body.length));
  });

  it('are stripped on every redirect hop too', async () => {
    const { result, hits } = await guestRequest({ url: `${allowed}/to-self`, headers: [['X-Forwarded-For', '10.0.0.1'], ['Via', '1.1 edge']] });
    expect(result).toEqual({ status: 200, body: 'upstream ok' });
    expect(hits.map((h) => h.url)).toEqual(['/to-self', '/ok']);
    for (const hit of hits) expect([hit.headers['x-forwarded-for'], hit.headers.via]).toEqual([undefined, undefined]);
  });
});

describe('ports: 443 unless the allow-list names host:port', () => {
  const tls = (host: string, port: number | null, path = '/ok') => `https://${host}${port === null ? '' : `:${port}`}${path}`;

  it('refuses a listed host on another port before connecting', async () => {
    const { result, hits } = await tlsRequest('egress', tls('api.allowed.test', tlsUpstream.port));
    expect(result.error).toBe(`Egress denied: Port ${tlsUpstream.port} of api.allowed.test is not in the app's egressHosts (api.allowed.test); list api.allowed.test:${tlsUpstream.port} to call it`);
    expect(hits).toEqual([]);
  });

  it('reaches a host on the port its host:port entry names, over TLS', async () => {
    const { result, hits } = await tlsRequest('ports', tls('api.allowed.test', tlsUpstream.port));
    expect(result).toEqual({ status: 200, body: 'tls ok' });
    expect(hits.map((h) => h.headers.host)).toEqual([`api.allowed.test:${tlsUpstream.port}`]);
  });

  it('reaches a subdomain on the port a *.host:port entry names, and on no other', async () => {
    expect((await tlsRequest('ports', tls('wild.allowed.test', tlsUpstream.port))).result).toEqual({ status: 200, body: 'tls ok' });
    expect((await tlsRequest('ports', tls('wild.allowed.test', null))).result.error).toMatch(/^Egress denied: Port 443 of wild\.allowed\.test is not in the app's egressHosts/);
  });

  it.each([
    ['443, which a host:port entry does not include', null],
    ['the next port up', 1],
    ['the next port down', -1],
  ])('refuses %s', async (_what, offset) => {
    const port = offset === null ? null : tlsUpstream.port + offset;
    const { result, hits } = await tlsRequest('ports', tls('api.allowed.test', port));
    expect(result.error).toMatch(new RegExp(`^Egress denied: Port ${port ?? 443} of api\\.allowed\\.test is not in the app's egressHosts`));
    expect(hits).toEqual([]);
  });

  it('takes an explicit :443 as the default port (the policy lets it through; nothing listens there)', async () => {
    const { result } = await tlsRequest('egress', tls('api.allowed.test', 443));
    expect(result.error).toMatch(/^fetch failed/);
  });

  it('checks the port on every redirect hop', async () => {
    const { result, hits } = await tlsRequest('egress', `${allowed}/to-tls-port`);
    expect(result.error).toMatch(new RegExp(`^Egress denied: Port ${tlsUpstream.port} of api\\.allowed\\.test`));
    expect(hits).toEqual([]);
  });

  it('lets the test-only loopback names use http on any port (what the other tests rely on)', async () => {
    expect(await guestFetch(`${allowed}/ok`)).toMatchObject({ status: 200, body: 'upstream ok' });
  });
});

async function tlsRequest(slug: string, url: string) {
  const before = tlsUpstream.hits.length;
  const res = await rt.route(slug, '/fetch', { method: 'POST', body: JSON.stringify({ url }) });
  return { result: await res.json() as { status?: number; body?: string; error?: string }, hits: tlsUpstream.hits.slice(before) };
}

describe('bounds', () => {
  it('decompresses bodies and caps them after decompression', async () => {
    expect(await guestFetch(`${allowed}/gzip`)).toMatchObject({ status: 200, body: 'hello gzip', encoding: null });
    expect((await guestFetch(`${allowed}/bomb`)).error).toMatch(/larger than 65536 bytes/);
  });

  it('allows at most 50 outbound requests per request', async () => {
    const out = await guestFetch(`${allowed}/ok`, '/fetch-many');
    expect(out.results!.slice(0, 50).every((r) => r === 200)).toBe(true);
    expect(out.results![50]).toMatch(/At most 50 outbound requests/);
  });

  it('times out an upstream that never answers', async () => {
    expect((await guestFetch(`${allowed}/hang`)).error).toMatch(/fetch failed|aborted/);
  });

  it('counts blocked attempts per app with bounded host labels', async () => {
    const text = await (await fetch(rt.metricsUrl)).text();
    expect(text).toMatch(/runtime_egress_blocked_total\{app="app_basic",host="_other",reason="ip-literal"\} \d+/);
    expect(text).toMatch(/runtime_egress_requests_total\{app="app_basic",host="api.allowed.test"\} \d+/);
    expect(text).not.toMatch(/host="not-listed/);
  });
});
