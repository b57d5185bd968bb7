/**
 * Every way a request can be wrong answers a tagged 4xx with the spec's error body, never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type ApiResponse, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack();
  ({ apiKey: key } = await stack.createWorkspace());
});
afterAll(async () => stack.stop());

function expectError(res: ApiResponse, status: number, tag: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ _tag: tag, message: expect.any(String), path: expect.any(Array) });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}

const operatorHeaders = (): Record<string, string> =>
  stack.config.workspaceCreation === 'open' ? {} : { authorization: `Bearer ${stack.config.operatorToken}` };

const issuePaths = (res: ApiResponse) => (res.body.issues as Array<{ path: unknown[] }>).map((i) => i.path);

describe('request bodies', () => {
  it('malformed JSON → 400 with an issue', async () => {
    const res = await stack.client(key).request('POST', '/circles', { rawBody: '{"name": "x", ', headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
    expect(res.body.issues).toEqual([expect.objectContaining({ path: [], code: 'malformed_json' })]);
  });

  it('empty body → 400', async () => {
    const res = await stack.client(key).request('POST', '/circles', { rawBody: '', headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
  });

  it('invalid UTF-8 → 400', async () => {
    const res = await stack.client(key).request('POST', '/circles', { rawBody: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x']])('content type %s → 400', async (type) => {
    const res = await stack.client(key).request('POST', '/circles', { rawBody: '{"name":"a","visibility":"public"}', headers: { 'content-type': type } });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
    expect(res.body.issues[0]).toMatchObject({ path: [], code: 'content_type' });
  });

  it('no content type at all → 400', async () => {
    const res = await stack.fetch('/client/v1/circles', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: new Blob(['{"name":"a","visibility":"public"}']) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformApiInvalidRequestError' });
  });

  it('accepts a charset parameter on application/json', async () => {
    const res = await stack.client(key).request('POST', '/circles', {
      rawBody: JSON.stringify({ name: 'Charset', visibility: 'public' }), headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('wrong type → 400 with the path of the field', async () => {
    const res = await stack.client(key).post('/circles', { name: 42, visibility: 'public' });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
    expect(issuePaths(res)).toEqual([['name']]);
    expect(res.body.path).toEqual(['name']);
  });

  it('wrong enum value and wrong nested type → 400 with each path', async () => {
    const res = await stack.client().request('POST', '/workspaces', { body: { name: 'W', owner: { name: ['x'] } }, headers: operatorHeaders() });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
    expect(issuePaths(res)).toEqual([['owner', 'name']]);
    const res2 = await stack.client(key).post('/circles', { name: 'x', visibility: 'secret' });
    expect(issuePaths(res2)).toEqual([['visibility']]);
  });

  it('missing field → 400 with its path', async () => {
    const res = await stack.client(key).post('/circles', { name: 'No visibility' });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
    expect(issuePaths(res)).toEqual([['visibility']]);
  });

  it('unknown field → 400 with a path ending at that field, also nested', async () => {
    const res = await stack.client(key).post('/circles', { name: 'x', visibility: 'public', colour: 'red' });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
    expect(issuePaths(res)).toEqual([['colour']]);
    const nested = await stack.client().request('POST', '/workspaces', { body: { name: 'W', owner: { name: 'O', email: 'o@example.com' } }, headers: operatorHeaders() });
    expectError(nested, 400, 'PlatformApiInvalidRequestError');
    expect(issuePaths(nested)).toEqual([['owner', 'email']]);
  });

  it('a JSON value that is not an object → 400', async () => {
    for (const raw of ['[]', '"text"', 'null', '42']) {
      const res = await stack.client(key).request('POST', '/circles', { rawBody: raw, headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'PlatformApiInvalidRequestError');
    }
  });

  it('text without visible characters or over its length → 400', async () => {
    expectError(await stack.client(key).post('/circles', { name: '   ', visibility: 'public' }), 400, 'PlatformApiInvalidRequestError');
    expectError(await stack.client(key).post('/circles', { name: 'x'.repeat(81), visibility: 'public' }), 400, 'PlatformApiInvalidRequestError');
    // 80 people-visible characters made of multi-code-point emoji still fit.
    expect((await stack.client(key).post('/circles', { name: '👩‍💻'.repeat(80), visibility: 'public' })).status).toBe(201);
  });

  it('nesting deeper than the cap → 400, not a stack overflow', async () => {
    const deep = '{"type":"doc","content":[' + '{"type":"p","content":['.repeat(5_000) + ']}'.repeat(5_000) + ']}';
    const res = await stack.client(key).request('POST', '/direct-messages', { rawBody: `{"to":"mem_x","content":${deep}}`, headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'PlatformApiInvalidRequestError');
  });

  it('body over the cap → 413 with the limit, counted while reading', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(20_000), visibility: 'public' });
    const res = await stack.client(key).request('POST', '/circles', { rawBody: big, headers: { 'content-type': 'application/json' } });
    expectError(res, 413, 'PlatformApiPayloadTooLargeError');
    expect(res.body.limit).toBe(16 * 1024);
  });

  it('body over the cap sent without content-length (chunked) → 413', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(8 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await stack.fetch('/client/v1/circles', {
      method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError', limit: 16 * 1024 });
  });

  it('bad query parameters → 400 with the parameter path', async () => {
    const res = await stack.client(key).get('/circles?limit=0');
    expectError(res, 400, 'PlatformApiInvalidRequestError');
    expect(issuePaths(res)).toEqual([['limit']]);
    expect(issuePaths(await stack.client(key).get('/circles?cursor=garbage'))).toEqual([['cursor']]);
    expect(issuePaths(await stack.client(key).get('/circles?colour=red'))).toEqual([['colour']]);
  });
});

describe('credentials', () => {
  it('missing credential → 401 PlatformAppTokenMissingError', async () => {
    expectError(await stack.client().get('/circles'), 401, 'PlatformAppTokenMissingError');
  });

  it.each([
    ['an unknown key', 'Bearer platkey_' + 'A'.repeat(43)],
    ['a malformed key', 'Bearer nope'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bare key without scheme', 'platkey_' + 'A'.repeat(43)],
  ])('%s → 401 PlatformAppTokenInvalidError', async (_name, header) => {
    const res = await stack.client().request('GET', '/circles', { headers: { authorization: header } });
    expectError(res, 401, 'PlatformAppTokenInvalidError');
  });

  it('checks credentials before the body (a bad body without a key is a 401)', async () => {
    const res = await stack.client().request('POST', '/circles', { rawBody: '{', headers: { 'content-type': 'application/json' } });
    expectError(res, 401, 'PlatformAppTokenMissingError');
  });
});

describe('routes', () => {
  it.each([['GET', '/nope'], ['GET', '/client/v1/nope'], ['POST', '/client/v1'], ['DELETE', '/healthz']])('%s %s → tagged 404', async (method, path) => {
    const res = await stack.fetch(path, { method });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: [] });
  });

  it('unknown ids answer 404 as if absent', async () => {
    expectError(await stack.client(key).get('/circles/cir_doesnotexist'), 404, 'PlatformApiNotFoundError');
    expectError(await stack.client(key).get('/conversations/cnv_doesnotexist'), 404, 'PlatformApiConversationNotFoundError');
    expectError(await stack.client(key).post('/messages/msg_nope/replies', { markdown: 'hi' }), 404, 'PlatformApiReplyNotFoundError');
  });
});
