/**
 * The spec's "nesting at most 128" for a manifest's schemas, through both endpoints that take a
 * manifest as JSON (issue 21, item 3): `PUT /v0/apps/{app_id}/manifest` and `PUT /v0/apps/dev`.
 * Schemas nested 100 and 128 levels sync, wherever in the manifest they sit (the deepest place is an
 * action's `input`); 129 answers `422 PlatformAppManifestInvalidError` reason `schema-too-complex`.
 * Every other body keeps the request parser's cap of 64 levels (a `400`).
 */
import { LIMITS } from '@platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type ApiResponse, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { createApp, selfManifest, uniqueSlug } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
});
afterAll(async () => stack.stop());

/** A JSON Schema whose objects nest `depth` levels (the validator's measure: `{}` is 1). */
function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < depth; i++) schema = { not: schema };
  return schema;
}

/** The manifest with a schema of `depth` levels in a block's props, or in an action's input (deepest). */
function manifestWith(slug: string, depth: number, where: 'props' | 'input'): Record<string, unknown> {
  const manifest = selfManifest(slug) as { blocks: Array<Record<string, any>> };
  const block = manifest.blocks[0]!;
  if (where === 'props') block.props = nested(depth);
  else block.actions[0].input = nested(depth);
  return manifest;
}

function expectTooComplex(res: ApiResponse) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'schema-too-complex', message: expect.any(String), path: expect.any(Array) });
}

const DEPTH = LIMITS.manifest.manifestSchemaDepth;

describe.each([['props'], ['input']] as const)('a schema in %s', (where) => {
  describe('through the manifest sync', () => {
    const sync = async (depth: number) => {
      const { app } = await createApp(ws.client);
      return stack.v0(ws.apiKey).put(`/apps/${app.id}/manifest`, { manifest: manifestWith(app.slug, depth, where), target: 'production' });
    };

    it.each([[100], [DEPTH]])('nested %i levels syncs', async (depth) => {
      const res = await sync(depth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ version: 1, created: true });
    });

    it(`nested ${DEPTH + 1} levels: 422 schema-too-complex`, async () => {
      expectTooComplex(await sync(DEPTH + 1));
    });
  });

  describe('through the dev sync', () => {
    const devSync = (depth: number) => stack.v0(ws.apiKey).put('/apps/dev', { manifest: manifestWith(uniqueSlug('nest'), depth, where) });

    it.each([[100], [DEPTH]])('nested %i levels syncs', async (depth) => {
      const res = await devSync(depth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ created: true });
    });

    it(`nested ${DEPTH + 1} levels: 422 schema-too-complex`, async () => {
      expectTooComplex(await devSync(DEPTH + 1));
    });
  });
});

describe('deeper than any schema may sit', () => {
  it('a manifest body nested far past 128 answers the same 422, through both endpoints', async () => {
    const { app } = await createApp(ws.client);
    const manifest = { ...selfManifest(app.slug), description: nested(2_000) };
    expectTooComplex(await stack.v0(ws.apiKey).put(`/apps/${app.id}/manifest`, { manifest, target: 'production' }));
    expectTooComplex(await stack.v0(ws.apiKey).put('/apps/dev', { manifest: { ...manifest, slug: uniqueSlug('deep') } }));
  });

  it('every other body keeps the parser cap of 64 levels: a 400', async () => {
    const res = await ws.client.post('/circles', { name: 'Deep', visibility: 'public', extra: nested(100) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', issues: [{ code: 'too_deep' }] });
  });
});
