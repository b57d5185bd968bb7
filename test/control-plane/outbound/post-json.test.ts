import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningSecret, verifyDelivery } from '@platform/sdk';
import { deliveryHeadersSync } from '@platform/sdk/node';
import { createGuardedAgent, postJson } from '../../../control-plane/src/deliveries/outbound/index.ts';

// A real app endpoint on loopback; each path plays one behaviour of a (mis)behaving app.
let server: Server;
let base: string;
const pending = new Set<ServerResponse>();

function handle(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    switch (req.url) {
      case '/echo':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ got: Buffer.concat(chunks).toString(), signature: req.headers['webhook-signature'] }));
        return;
      case '/exactly-1mb':
        res.writeHead(200);
        res.end(Buffer.alloc(1024 * 1024, 97));
        return;
      case '/big-declared':
        res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) });
        res.end(Buffer.alloc(2 * 1024 * 1024, 97));
        return;
      case '/big-chunked': {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        const chunk = Buffer.alloc(64 * 1024, 98);
        let sent = 0;
        const push = () => {
          while (sent < 2 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', push);
          }
          res.end();
        };
        push();
        return;
      }
      case '/redirect':
        res.writeHead(302, { location: `${base}/echo` });
        res.end();
        return;
      case '/silent':
        pending.add(res); // never answers; released in afterAll
        return;
      default:
        res.writeHead(404);
        res.end();
    }
  });
}

const agent = createGuardedAgent({ allowLoopback: true });
const strictAgent = createGuardedAgent({ allowLoopback: false });
const MB = 1024 * 1024;
const post = (path: string, extra: Partial<Parameters<typeof postJson>[0]> = {}) =>
  postJson({ url: base + path, body: '{"a":1}', headers: { 'content-type': 'application/json' }, timeoutMs: 2000, maxResponseBytes: MB, dispatcher: agent, guard: { allowLoopback: true }, ...extra });

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of pending) res.destroy();
  await agent.close();
  await strictAgent.close();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('postJson', () => {
  it('posts the body and reads the answer', async () => {
    const outcome = await post('/echo');
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.status).toBe(200);
    expect(JSON.parse(Buffer.from(outcome.body).toString()).got).toBe('{"a":1}');
  });

  it('reads a body of exactly the cap and refuses one past it (declared or streamed)', async () => {
    const exact = await post('/exactly-1mb');
    expect(exact.ok && exact.body.byteLength).toBe(MB);
    const declared = await post('/big-declared');
    expect(declared).toMatchObject({ ok: false, failure: 'too-large' });
    const streamed = await post('/big-chunked');
    expect(streamed).toMatchObject({ ok: false, failure: 'too-large' });
  });

  it('never follows a redirect', async () => {
    const outcome = await post('/redirect');
    expect(outcome).toMatchObject({ ok: true, status: 302 });
  });

  it('gives up at the deadline', async () => {
    const outcome = await post('/silent', { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, failure: 'timeout' });
  });

  it.each([
    ['an IP literal on loopback', (port: string) => `https://127.0.0.1:${port}/echo`],
    ['an IPv4-mapped literal', (port: string) => `https://[::ffff:127.0.0.1]:${port}/echo`],
    ['a name resolving to loopback', (port: string) => `https://localhost:${port}/echo`],
    ['the metadata address', () => 'https://169.254.169.254/latest/meta-data'],
    ['plain http', (port: string) => `http://example.com:${port}/`],
    ['userinfo', () => 'https://user:pass@example.com/'],
  ])('refuses %s outside development mode', async (_name, url) => {
    const port = new URL(base).port;
    const outcome = await postJson({ url: url(port), body: '{}', headers: {}, timeoutMs: 2000, maxResponseBytes: MB, dispatcher: strictAgent, guard: { allowLoopback: false } });
    expect(outcome).toMatchObject({ ok: false, failure: 'refused' });
  });

  it.each([
    ['a private address', () => 'https://10.0.0.1/'],
    ['the metadata address', () => 'https://169.254.169.254/latest/meta-data'],
    ['the unspecified address (which Linux connects to loopback)', (port: string) => `http://0.0.0.0:${port}/echo`],
    ['the unspecified IPv6 address', (port: string) => `http://[::]:${port}/echo`],
    ['an IPv6 link-local address', () => 'https://[fe80::1]/'],
    ['NAT64 of loopback', () => 'https://[64:ff9b::7f00:1]/'],
  ])('refuses %s in development mode too', async (_name, url) => {
    const port = new URL(base).port;
    const outcome = await postJson({ url: url(port), body: '{}', headers: {}, timeoutMs: 2000, maxResponseBytes: MB, dispatcher: agent, guard: { allowLoopback: true } });
    expect(outcome).toMatchObject({ ok: false, failure: 'refused' });
  });

  it('reaches loopback in development mode, by literal and by name', async () => {
    const port = new URL(base).port;
    for (const url of [`http://127.0.0.1:${port}/echo`, `http://localhost:${port}/echo`]) {
      const outcome = await postJson({ url, body: '{}', headers: {}, timeoutMs: 2000, maxResponseBytes: MB, dispatcher: agent, guard: { allowLoopback: true } });
      expect(outcome).toMatchObject({ ok: true, status: 200 });
    }
  });
});

describe('delivery headers', () => {
  it('carries one signature per live secret; either verifies', async () => {
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const body = '{"type":"app.installed"}';
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeadersSync({ id: 'dlv_1', timestamp, body, secrets: [current, previous], deliveryClass: 'lifecycle', installId: 'ins_1' });
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(headers).toMatchObject({ 'webhook-id': 'dlv_1', 'platform-delivery': 'lifecycle', 'platform-install': 'ins_1', 'content-type': 'application/json' });
    for (const secret of [current, previous]) expect((await verifyDelivery({ headers, body, secret })).ok).toBe(true);
    expect((await verifyDelivery({ headers, body, secret: generateSigningSecret() })).ok).toBe(false);
  });
});
