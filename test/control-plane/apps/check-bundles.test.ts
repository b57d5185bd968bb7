/**
 * `POST /v0/apps/check/bundles` with a real runtime node on loopback: a hosted bundle checked as an
 * upload would check it, before any app exists (what `platform deploy --create` asks first). Its
 * manifest comes back when the code loads and the manifest is valid; otherwise the upload's own
 * error; and nothing is stored either way.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWorkspace, Stack } from '../../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from './runtime.ts';

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  env = await startStackWithRuntime({ runtimeEnv: { RUNTIME_STARTUP_CPU_MS: '300' } });
  stack = env.stack;
  ws = await stack.createWorkspace();
});
afterAll(async () => env?.stop());

const app = (manifest: Record<string, unknown>, prelude = '') => Buffer.from(`${prelude}
export default { manifest: ${JSON.stringify(manifest)}, fetch() { return new Response('ok'); } };
`);
const hosted = (slug: string) => ({ schemaVersion: 1, name: 'Checked', slug, hosting: 'platform' });

const check = (body: Uint8Array, credential: string | null = ws.apiKey) =>
  stack.v0(credential ?? undefined).request('POST', '/apps/check/bundles', { rawBody: body, headers: { 'content-type': 'application/javascript' } });

describe('checking a bundle before its app exists', () => {
  it('answers the manifest the code computes, defaults applied, and stores nothing', async () => {
    const body = app(hosted('checked-ok'));
    const res = await check(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sha256 = createHash('sha256').update(body).digest('hex');
    expect(res.body).toMatchObject({ sha256, manifest: { slug: 'checked-ok', hosting: 'platform', blocks: [] } });
    expect(await stack.controlPlane.apps.bundles.has(sha256)).toBe(false);
    expect((await ws.client.get('/apps')).body.items).toEqual([]);
  });

  it.each([
    ['code that throws while it loads', app(hosted('checked-throws'), 'throw new Error("no settings");'), 422, { _tag: 'PlatformAppBundleInvalidError' }],
    ['a manifest the service refuses (a reserved name)', app({ ...hosted('admin'), name: 'Admin' }), 422, { _tag: 'PlatformAppManifestInvalidError', reason: 'reserved-name' }],
    ['a self-hosted manifest', app({ ...hosted('checked-self'), hosting: 'self', endpoint: { url: 'https://x.example.com/platform' } }), 422, { _tag: 'PlatformAppManifestInvalidError', reason: 'hosting-mismatch' }],
  ])('refuses %s with the upload\'s error', async (_name, body, status, error) => {
    const res = await check(body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject(error);
  });

  it('needs a tooling credential', async () => {
    expect((await check(app(hosted('checked-anon')), null)).status).toBe(401);
  });
});
