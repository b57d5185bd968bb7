// The MCP server called over its path as a client would, without a platform running (`npm test`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestPlatform } from '@platform/sdk/testing';
import app from './app.ts';

const platform = createTestPlatform({ app });

const rpc = (method: string, params: unknown) => platform.request('/mcp', {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
});

test('lists the greet tool', async () => {
  const listed = await (await rpc('tools/list', {})).json() as { result: { tools: Array<{ name: string }> } };
  assert.deepEqual(listed.result.tools.map((t) => t.name), ['greet']);
});

test('greet answers with the greeting', async () => {
  const called = await (await rpc('tools/call', { name: 'greet', arguments: { name: 'ada' } })).json() as { result: { content: Array<{ text: string }> } };
  assert.equal(called.result.content[0]?.text, 'Hello, ada!');
});
