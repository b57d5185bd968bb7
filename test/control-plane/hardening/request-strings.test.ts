/**
 * Strings no request may carry (issue 13, item 4): NUL and ill-formed Unicode in a path parameter, a
 * query parameter or any JSON string (keys included) answer a 400 naming where, from the one
 * validation layer; names refuse bidi embeddings, overrides and isolates and need a visible
 * character; and the refusals the HTTP layer makes itself (414, 431, 413, malformed requests) carry
 * the same tagged body as every other error.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let ws: CreatedWorkspace;
beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
});
afterAll(async () => {
  await stack?.stop();
});

const tagged = (body: any) => expect(body).toMatchObject({ _tag: expect.any(String), message: expect.any(String), path: expect.any(Array) });

async function send(path: string, init: RequestInit = {}) {
  const res = await stack.fetch(path, { ...init, headers: { authorization: `Bearer ${ws.apiKey}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  return { status: res.status, body: await res.json() as any };
}

describe('NUL and ill-formed Unicode', () => {
  it.each([
    ['a NUL in a path parameter', '/client/v1/circles/%00', ['circleId'], 'nul_character'],
    ['a NUL in a /v0 path parameter', '/v0/apps/%00/manifest', ['app_id'], 'nul_character'],
    ['a lone surrogate, percent-encoded, in a path', '/client/v1/circles/%ED%A0%80', [], 'invalid_encoding'],
    ['a NUL in a query parameter', '/client/v1/members?cursor=a%00b', ['cursor'], 'nul_character'],
    ['a lone surrogate in a query parameter', '/client/v1/members?cursor=%ED%A0%80', ['cursor'], 'invalid_encoding'],
  ])('%s: 400 with its path', async (_name, path, where, code) => {
    const res = await send(path);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: where, issues: [{ path: where, code }] });
  });

  it.each([
    ['a NUL in a name', '{"name":"a\\u0000b"}', ['name'], 'nul_character'],
    ['a lone high surrogate in a name', '{"name":"a\\ud800b"}', ['name'], 'ill_formed_unicode'],
    ['a lone low surrogate in a name', '{"name":"\\udc00"}', ['name'], 'ill_formed_unicode'],
    ['a NUL in a key', '{"name":"ok","x\\u0000":1}', ['x\u0000'], 'nul_character'],
  ])('%s: 400 with its path', async (_name, raw, where, code) => {
    const res = await send('/client/v1/api-keys', { method: 'POST', body: raw });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: where, issues: [{ path: where, code }] });
  });

  it('a string deep in a body is named by its whole path', async () => {
    const res = await send('/client/v1/circles', { method: 'POST', body: '{"name":"General","visibility":"public","extra":[{"deep":["fine","bad\\u0000"]}]}' });
    expect(res.status).toBe(400);
    expect(res.body.path).toEqual(['extra', 0, 'deep', 1]);
  });

  it('a well-formed pair (an emoji) is fine', async () => {
    const res = await send('/client/v1/api-keys', { method: 'POST', body: '{"name":"deploy \\ud83d\\ude80"}' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.key.name).toBe('deploy 🚀');
  });
});

describe('names', () => {
  it.each([
    ['a right-to-left override', 'admin\u202Egnp.exe'],
    ['a left-to-right isolate', '\u2066Olive\u2069'],
    ['zero-width characters only', '\u200B\u200D\uFEFF'],
    ['a bidi mark only', '\u200F'],
  ])('refuses %s', async (_name, name) => {
    const res = await send('/client/v1/circles', { method: 'POST', body: JSON.stringify({ name, visibility: 'public' }) });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['name'] });
  });

  it.each([
    ['an emoji sequence with zero-width joiners', 'Family 👨\u200D👩\u200D👧'],
    ['a Persian word with a zero-width non-joiner', 'می\u200Cخواهم'],
    ['a Hebrew name with a right-to-left mark', 'שלום\u200F 2'],
  ])('keeps %s', async (_name, name) => {
    const res = await send('/client/v1/circles', { method: 'POST', body: JSON.stringify({ name, visibility: 'public' }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.circle.name).toBe(name);
  });
});

/** One raw HTTP/1.1 exchange: what the server writes back before closing. */
function rawExchange(request: string): Promise<string> {
  const url = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseRaw(raw: string): { status: number; body: any } {
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

describe('refusals of the HTTP layer carry the tagged body', () => {
  it('414 for a URL over 8 KB', async () => {
    const res = await send(`/client/v1/members?cursor=${'a'.repeat(9 * 1024)}`);
    expect(res.status).toBe(414);
    tagged(res.body);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiUriTooLongError', limit: 8192 });
  });

  it('431 for headers over 16 KB', async () => {
    const res = await send('/client/v1/me', { headers: { 'x-padding': 'a'.repeat(20 * 1024) } });
    expect(res.status).toBe(431);
    tagged(res.body);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiHeadersTooLargeError', limit: 16384 });
  });

  it('431 for a URL over 16 KB (the request line counts toward the headers)', async () => {
    const res = parseRaw(await rawExchange(`GET /client/v1/members?cursor=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nhost: x\r\n\r\n`));
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiHeadersTooLargeError', path: [] });
  });

  it('400 for a request that is not HTTP', async () => {
    const res = parseRaw(await rawExchange('GET / HTTP/1.1\r\nhost: x\r\nno colon here\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: [] });
  });

  it('413 for a body over its cap', async () => {
    const res = await send('/client/v1/api-keys', { method: 'POST', body: JSON.stringify({ name: 'a'.repeat(20 * 1024) }) });
    expect(res.status).toBe(413);
    tagged(res.body);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError', limit: 16384 });
  });
});
