/**
 * A key written twice in one JSON object (issue 26, hardening): `JSON.parse` would keep the last one
 * (`{"visibility":"private","visibility":"public"}` made a public circle), so every JSON body of
 * `/client/v1` and `/v0` refuses it with `400 PlatformApiInvalidRequestError`, its `path` naming
 * the repeated key, before the schema or a handler sees the body.
 */
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

async function post(path: string, raw: string) {
  const res = await stack.fetch(path, { method: 'POST', body: raw, headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json() as any };
}

const circleNames = async (): Promise<string[]> => {
  const res = await ws.client.get('/circles?limit=200');
  expect(res.status).toBe(200);
  return (res.body.items as Array<{ name: string }>).map((c) => c.name);
};

describe('duplicate keys in a JSON body', () => {
  it('refuses the circle whose visibility is written twice, and creates nothing', async () => {
    const res = await post('/client/v1/circles', '{"name":"Twice","visibility":"private","visibility":"public"}');
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({
      _tag: 'PlatformApiInvalidRequestError',
      path: ['visibility'],
      issues: [{ path: ['visibility'], code: 'duplicate_key', message: expect.stringContaining('"visibility"') }],
    });
    expect(await circleNames()).not.toContain('Twice');
  });

  it('refuses a repeat spelled with an escape, as the parser reads both as one key', async () => {
    const res = await post('/client/v1/circles', '{"name":"Escaped","visibility":"private","vis\\u0069bility":"public"}');
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['visibility'], issues: [{ code: 'duplicate_key' }] });
  });

  it('names a repeat deep in a /v0 body by its whole path', async () => {
    const tree = '{"type":"uiBlock","attrs":{"catalog":1,"summary":"s"},"content":[{"type":"uiText","content":[{"type":"text","text":"a","text":"b"}]}]}';
    const res = await post('/v0/apps/check/trees', `{"tree":${tree}}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['tree', 'content', 0, 'content', 0, 'text'], issues: [{ code: 'duplicate_key' }] });
  });

  it('keeps the same key in sibling objects, and keys that only look alike inside strings', async () => {
    const tree = {
      type: 'uiBlock',
      attrs: { catalog: 1, summary: 'a "summary": with \\"quotes\\" {"x":1,"x":2}' },
      content: [
        { type: 'uiHeader', content: [{ type: 'uiHeaderTitle', content: [{ type: 'text', text: 'one' }] }] },
        { type: 'uiText', content: [{ type: 'text', text: 'two' }, { type: 'text', text: 'three' }] },
      ],
    };
    const res = await post('/v0/apps/check/trees', JSON.stringify({ tree }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ valid: expect.any(Boolean) });
  });

  it('still creates the circle written once', async () => {
    const res = await post('/client/v1/circles', '{"name":"Once","visibility":"private"}');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.circle).toMatchObject({ name: 'Once', visibility: 'private' });
  });
});
