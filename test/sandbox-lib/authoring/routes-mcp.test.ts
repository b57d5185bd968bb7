// Requests that are not deliveries: the app's routes (404 when none match, 405 with allow) and
// its MCP server (JSON-RPC over HTTP at the path of the manifest's MCP URL).
import { describe, expect, it } from 'vitest';
import { compileRoutes, defineApp, defineMcp, defineTool, silentLogger } from '@platform/sdk';
import { counterApp } from '../../fixtures/apps/counter.ts';

const app = counterApp({ logger: silentLogger });
const ENV = { COUNTER_TOKEN: 'token', GREETING: 'howdy' };
const get = (path: string, init?: RequestInit) => app.fetch(new Request(`https://counter.example.com${path}`, init), ENV);

describe('routes', () => {
  it('routes a GET to its handler with the environment read by its schema', async () => {
    const response = await get('/hello');
    expect([response.status, await response.text()]).toEqual([200, 'howdy world']);
    const defaulted = await app.fetch(new Request('https://counter.example.com/hello'), { COUNTER_TOKEN: 'token' });
    expect(await defaulted.text()).toBe('hello world');
  });

  it('passes decoded path parameters', async () => {
    expect(await (await get('/items/a%20b')).json()).toEqual({ id: 'a b' });
  });

  it('answers 404 when no route matches and 405 with allow for another method', async () => {
    expect((await get('/nowhere')).status).toBe(404);
    const post = await get('/hello', { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
    expect((await get('/hello', { method: 'HEAD' })).status).toBe(200);
  });

  it('a request with only one of the delivery headers is not a delivery', async () => {
    const response = await get('/hello', { headers: { 'platform-delivery': 'interactive' } });
    expect(response.status).toBe(200);
  });

  it('matches literals, parameters and a trailing *, in declaration order', () => {
    const router = compileRoutes({ 'GET /a/:x': () => new Response('1'), 'GET /a/b': () => new Response('2'), '* /files/*': () => new Response('3') });
    expect(router.match('GET', '/a/b')).toMatchObject({ kind: 'found', params: { x: 'b' } });
    expect(router.match('DELETE', '/files/x/y.txt')).toMatchObject({ kind: 'found', params: { '*': 'x/y.txt' } });
    expect(router.match('GET', '/a/b/c')).toEqual({ kind: 'none' });
  });

  it('takes one fetch-style function instead of a table', async () => {
    const fallback = defineApp({ name: 'Proxy', slug: 'proxy', hosting: 'platform', routes: (request) => new Response(new URL(request.url).pathname) }, { logger: silentLogger });
    expect(await (await fallback.fetch(new Request('https://p.example.com/any/path'))).text()).toBe('/any/path');
  });
});

describe('MCP server', () => {
  let id = 0;
  const rpc = async (method: string, params?: unknown, target = app) => {
    id += 1;
    const response = await target.fetch(new Request('https://counter.example.com/mcp', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    }), ENV);
    return { status: response.status, body: await response.json() as { result?: any; error?: { code: number; message: string } } };
  };

  it('initializes with the protocol version asked for when known', async () => {
    const { body } = await rpc('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(body.result).toEqual({ protocolVersion: '2025-03-26', capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'counter', version: '1.0.0' } });
  });

  it('lists tools with their input schema and hints', async () => {
    const { body } = await rpc('tools/list');
    expect(body.result.tools[0]).toMatchObject({
      name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object', required: ['a', 'b'] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false },
    });
  });

  it('calls a tool with checked arguments', async () => {
    expect((await rpc('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })).body.result).toEqual({ content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } });
    expect((await rpc('tools/call', { name: 'add', arguments: { a: 'x' } })).body.error).toMatchObject({ code: -32602 });
    expect((await rpc('tools/call', { name: 'nope' })).body.error).toMatchObject({ code: -32602 });
  });

  it('reports a failing tool as a tool error without its message', async () => {
    expect((await rpc('tools/call', { name: 'fail' })).body.result).toEqual({ content: [{ type: 'text', text: 'The tool fail failed' }], isError: true });
  });

  it('answers an unknown method, a notification and a GET as the protocol says', async () => {
    expect((await rpc('resources/list')).body.error).toMatchObject({ code: -32601 });
    const note = await app.fetch(new Request('https://counter.example.com/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }), ENV);
    expect(note.status).toBe(202);
    expect((await app.fetch(new Request('https://counter.example.com/mcp'), ENV)).status).toBe(405);
  });

  it('asks authorize when auth is not none, and answers 401 when it refuses', async () => {
    const guarded = defineApp({
      name: 'Guarded', slug: 'guarded', hosting: 'platform',
      mcp: defineMcp({
        url: 'https://counter.example.com/mcp', auth: 'oauth',
        authorize: (request) => request.headers.get('authorization') === 'Bearer good',
        tools: [defineTool({ name: 'ping', readOnly: true, handler: () => 'pong' })],
      }),
    }, { logger: silentLogger });
    expect((await rpc('tools/list', undefined, guarded)).status).toBe(401);
    const allowed = await guarded.fetch(new Request('https://counter.example.com/mcp', {
      method: 'POST', headers: { authorization: 'Bearer good' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping' } }),
    }));
    expect(((await allowed.json()) as { result: unknown }).result).toEqual({ content: [{ type: 'text', text: 'pong' }] });
  });
});
