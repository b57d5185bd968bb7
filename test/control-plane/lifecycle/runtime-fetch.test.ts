/**
 * The `fetch` the control plane gives the runtime client (deliveries/targets/runtime-fetch.ts): the same
 * answers as a fetch for what the client uses (status, headers, body bytes), no redirects followed,
 * aborts honoured, and the runtime client works on it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeClient } from '@platform/runtime';
import { createRuntimeFetch } from '../../../control-plane/src/deliveries/targets/runtime-fetch.ts';

let server: Server;
let base: string;
const runtimeFetch = createRuntimeFetch();

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const text = await body(req);
      if (req.url === '/echo') {
        res.setHeader('x-many', ['one', 'two']);
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, type: req.headers['content-type'], body: text }));
      } else if (req.url === '/empty') {
        res.writeHead(204).end();
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/echo' }).end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.writeHead(200).end('late'), 2_000).unref();
      } else if (req.url === '/internal/v1/deliveries') {
        res.writeHead(200, { 'platform-runtime-outcome': 'ok', 'platform-runtime-cpu-ms': '1.5', 'x-request-id': 'req_1' });
        res.end(JSON.stringify({ got: (JSON.parse(text) as { headers: Record<string, string> }).headers['webhook-id'] }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('runtime fetch', () => {
  it('sends method, headers and body, and answers status, every header value and the body', async () => {
    const res = await runtimeFetch(`${base}/echo`, { method: 'POST', headers: { authorization: 'Bearer s', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-many')).toBe('one, two');
    expect(await res.json()).toEqual({ method: 'POST', auth: 'Bearer s', type: 'application/json', body: '{"a":1}' });
  });

  it('sends bytes, answers an empty body for 204, and does not follow redirects', async () => {
    const sent = await runtimeFetch(`${base}/echo`, { method: 'PUT', body: new TextEncoder().encode('bytes') });
    expect(((await sent.json()) as { body: string }).body).toBe('bytes');
    const empty = await runtimeFetch(`${base}/empty`, { method: 'POST', body: 'x' });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    const moved = await runtimeFetch(`${base}/moved`);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/echo');
  });

  it('gives up when its signal aborts', async () => {
    await expect(runtimeFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: expect.stringMatching(/TimeoutError|AbortError/) });
  });

  it('carries the runtime client', async () => {
    const client = createRuntimeClient({ url: base, secret: 'x'.repeat(20), fetch: runtimeFetch });
    const result = await client.deliver({
      app: { id: 'app_1', slug: 'a', version: 1 }, bundle: { sha256: 'f'.repeat(64) }, target: 'production', baseUrl: base,
      kind: 'interactive', headers: { 'webhook-id': 'dlv_1' }, body: '{"id":"dlv_1"}',
    });
    expect(result).toMatchObject({ outcome: 'ok', status: 200, cpuMs: 1.5, requestId: 'req_1', error: null });
    expect(JSON.parse(result.text())).toEqual({ got: 'dlv_1' });
  });
});
