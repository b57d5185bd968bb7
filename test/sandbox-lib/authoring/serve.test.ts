// The Node adapter over real HTTP on a free loopback port: a signed delivery and a route reach
// the app, a repeated header stays visible to signature checks, oversized bodies get 413, pipelined
// requests are answered in order before the refusal of bytes that do not parse.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryHeaders, ENV_KEYS, silentLogger } from '@platform/sdk';
import { serve, type Served } from '../../../sandbox-lib/src/node/index.ts';
import { counterApp } from '../../fixtures/apps/counter.ts';
import { exchange } from '../../helpers/raw-http.ts';
import { actionData, envelope, SECRET } from './helpers.ts';

const ENV = { [ENV_KEYS.signingSecret]: SECRET, COUNTER_TOKEN: 'token' };
let server: Served | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw request, so headers can repeat and the body can go without a length. */
function raw(url: string, headers: Record<string, string | string[]>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('serve', () => {
  it('answers a signed block.action over HTTP (real clock)', async () => {
    server = await serve(counterApp({ logger: silentLogger }), { port: 0, env: ENV, logger: silentLogger });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const body = JSON.stringify(envelope('block.action', actionData('increment')));
    const id = JSON.parse(body).id as string;
    const headers = await deliveryHeaders({ id, timestamp: new Date(), body, secret: SECRET, deliveryClass: 'interactive', installId: 'ins_1' });
    const response = await fetch(`${server.url}/platform`, { method: 'POST', headers, body });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { state: unknown }).state).toEqual({ count: 3, step: 1 });
  });

  it('serves routes', async () => {
    server = await serve(counterApp({ logger: silentLogger }), { port: 0, env: { ...ENV, GREETING: 'hi' }, logger: silentLogger });
    const response = await fetch(`${server.url}/hello`);
    expect([response.status, await response.text()]).toEqual([200, 'hi world']);
  });

  it('keeps a repeated signature header visible: the delivery is refused', async () => {
    server = await serve(counterApp({ logger: silentLogger }), { port: 0, env: ENV, logger: silentLogger });
    const body = JSON.stringify(envelope('block.action', actionData('increment')));
    const headers = await deliveryHeaders({ id: JSON.parse(body).id, timestamp: new Date(), body, secret: SECRET, deliveryClass: 'interactive', installId: 'ins_1' });
    const signature = headers['webhook-signature']!;
    const answer = await raw(`${server.url}/platform`, { ...headers, 'webhook-signature': [signature, signature] }, body);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toEqual({ error: 'invalid-signature', reason: 'duplicate-header' });
  });

  it('answers 413 for a body over the cap, declared or streamed', async () => {
    server = await serve(counterApp({ logger: silentLogger }), { port: 0, env: ENV, maxBodyBytes: 1024, logger: silentLogger });
    const big = 'x'.repeat(2048);
    expect((await raw(`${server.url}/hello`, { 'content-length': String(big.length) }, big)).status).toBe(413);
    expect((await raw(`${server.url}/hello`, { 'transfer-encoding': 'chunked' }, big)).status).toBe(413);
  });

  it('a route and garbage in one write: the route\'s answer, then the tagged 400 (pipelining)', async () => {
    server = await serve(counterApp({ logger: silentLogger }), { port: 0, env: { ...ENV, GREETING: 'hi' }, logger: silentLogger });
    // The route's answer may be chunked (a Web Response without a length): read the status lines.
    const raw = await exchange(server.url, 'GET /hello HTTP/1.1\r\nhost: localhost\r\n\r\nxx garbage\r\n\r\n');
    expect([...raw.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]))).toEqual([200, 400]);
    expect(raw.indexOf('hi world')).toBeLessThan(raw.lastIndexOf('HTTP/1.1 400'));
    expect(JSON.parse(raw.slice(raw.lastIndexOf('\r\n\r\n') + 4))).toMatchObject({ _tag: 'PlatformApiInvalidRequestError' });
  });

  it('close() stops accepting connections', async () => {
    server = await serve(counterApp({ logger: silentLogger }), { port: 0, env: ENV, logger: silentLogger });
    const { url } = server;
    await server.close();
    server = undefined;
    await expect(fetch(`${url}/hello`)).rejects.toThrow();
  });
});
