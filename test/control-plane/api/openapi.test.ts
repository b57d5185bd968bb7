/**
 * The OpenAPI 3.1 document of the client API: valid JSON, every route documented with resolvable
 * references, and the document matches the routes the server really answers. The builder is
 * reusable for another API (/v0).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '@platform/control-plane';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let doc: any;

beforeAll(async () => {
  stack = await startStack();
  const res = await stack.fetch('/client/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = JSON.parse(await res.text());
});
afterAll(async () => stack.stop());

const EXPECTED: Array<[string, string]> = [
  ['post', '/workspaces'], ['get', '/me'], ['post', '/members'], ['get', '/members'], ['get', '/members/{memberId}'],
  ['post', '/api-keys'], ['get', '/api-keys'], ['delete', '/api-keys/{keyId}'],
  ['post', '/circles'], ['get', '/circles'], ['get', '/circles/{circleId}'], ['get', '/circles/{circleId}/members'],
  ['put', '/circles/{circleId}/members/{memberId}'], ['delete', '/circles/{circleId}/members/{memberId}'],
  ['post', '/circles/{circleId}/connection'], ['delete', '/circles/{circleId}/connection'],
  ['get', '/circles/{circleId}/app-invitations'], ['put', '/circles/{circleId}/app-invitations/{appId}'], ['delete', '/circles/{circleId}/app-invitations/{appId}'],
  ['post', '/circles/{circleId}/conversations'], ['get', '/circles/{circleId}/conversations'],
  ['get', '/conversations/{conversationId}'], ['patch', '/conversations/{conversationId}'],
  ['post', '/conversations/{conversationId}/messages'], ['get', '/conversations/{conversationId}/messages'],
  ['post', '/circles/{circleId}/messages'], ['get', '/circles/{circleId}/messages'],
  ['get', '/messages/{messageId}'], ['post', '/messages/{messageId}/replies'], ['get', '/messages/{messageId}/replies'],
  ['post', '/messages/{messageId}/file'], ['post', '/direct-messages'], ['get', '/direct-messages/{memberId}'],
];

function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('client API OpenAPI document', () => {
  it('is OpenAPI 3.1 with info, servers, and the bearer schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: '1' });
    expect(doc.servers).toEqual([{ url: '/client/v1' }]);
    expect(doc.components.securitySchemes.member).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every route, each with a unique operationId, responses and the path parameters', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => [m, path]));
    // The workspace model's routes are all there; other features (apps, installs, deliveries,
    // blocks) add theirs and check them in their own suites.
    const key = ([m, p]: readonly string[]) => `${m} ${p}`;
    expect(documented.map(key)).toEqual(expect.arrayContaining(EXPECTED.map(key)));
    const ids = documented.map(([m, p]) => doc.paths[p!][m!].operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [m, p] of documented) {
      const op = doc.paths[p!][m!];
      expect(Object.keys(op.responses).length).toBeGreaterThan(1);
      const names = [...p!.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
      expect(op.parameters?.filter((x: { in: string }) => x.in === 'path').map((x: { name: string }) => x.name) ?? []).toEqual(names);
    }
  });

  it('resolves every $ref inside the document', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(20);
    for (const ref of all) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9_]+$/);
      expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    }
  });

  it('describes strict request bodies (unknown fields rejected) and the recursive document', () => {
    expect(doc.components.schemas.CreateCircleRequest).toMatchObject({ additionalProperties: false, required: ['name', 'visibility'] });
    expect(doc.components.schemas.DocNode.properties.content.items).toEqual({ $ref: '#/components/schemas/DocNode' });
  });

  it('matches the routes the server answers: every member route answers 401 without a key, never 404', async () => {
    for (const [method, path] of EXPECTED) {
      if (path === '/workspaces') continue;
      const concrete = path.replace(/\{[^}]+\}/g, 'x_1');
      const res = await stack.fetch(`/client/v1${concrete}`, { method: method.toUpperCase() });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('the API builder is reusable for another API', () => {
  it('serves a second API with its own document', async () => {
    const api = createApi({ basePath: '/v0', title: 'App API', version: '0', description: 'test', auth: {} });
    api.route({
      operationId: 'echo', method: 'post', path: '/echo/{name}', summary: 'Echo', tag: 'test', auth: 'none',
      body: z.strictObject({ n: z.number() }), status: 200, response: z.object({ name: z.string(), n: z.number() }),
    }, async ({ params, body }) => ({ name: params.name, n: body.n, internal: 'stripped' }) as { name: string; n: number });
    const app = new Hono();
    app.route(api.basePath, api.router as unknown as Hono);
    const res = await app.request('/v0/echo/abc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":2}' });
    expect(await res.json()).toEqual({ name: 'abc', n: 2 });
    const v0 = (await (await app.request('/v0/openapi.json')).json()) as { paths: object; servers: unknown };
    expect(Object.keys(v0.paths)).toEqual(['/echo/{name}']);
    expect(v0.servers).toEqual([{ url: '/v0' }]);
  });
});
