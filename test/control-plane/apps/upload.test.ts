/**
 * Hosted upload end to end with a real runtime node on loopback: a 10 MB bundle uploads and
 * 10 MB + 1 byte does not; the manifest recorded is the one the code computes (evaluated by the
 * node in a fresh isolate under its CPU budget) and is validated like a synced one; an identical
 * upload answers the latest version; a production upload is what the node then serves, with the
 * production environment, resolved through `/internal/v1`.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@platform/sdk';
import type { CreatedWorkspace, Stack } from '../../helpers/stack.ts';
import { createApp } from './helpers.ts';
import { startStackWithRuntime, type StackWithRuntime } from './runtime.ts';

const MAX = LIMITS.manifest.hostedBundleBytes;

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  env = await startStackWithRuntime({ runtimeEnv: { RUNTIME_STARTUP_CPU_MS: '300' } });
  stack = env.stack;
  ws = await stack.createWorkspace();
});
afterAll(async () => env.stop());

const hostedManifest = (slug: string, extra: Record<string, unknown> = {}) =>
  ({ schemaVersion: 1, name: 'Hosted', slug, hosting: 'platform', egressHosts: ['api.example.com'], ...extra });

/** An ES module whose default export is the app; padded with a comment to exactly `size` bytes when given. */
function bundle(manifest: unknown, options: { size?: number; prelude?: string } = {}): Uint8Array {
  const source = `${options.prelude ?? ''}
export default {
  manifest: ${JSON.stringify(manifest)},
  async fetch(request, env) {
    return Response.json({ path: new URL(request.url).pathname, region: env.REGION ?? null });
  },
};
`;
  const bytes = Buffer.from(source, 'utf8');
  if (options.size === undefined) return bytes;
  return Buffer.concat([bytes, Buffer.from('//' + 'x'.repeat(options.size - bytes.length - 2), 'utf8')]);
}

const upload = (appId: string, body: Uint8Array, target: 'preview' | 'production' = 'preview') =>
  stack.v0(ws.apiKey).request('POST', `/apps/${appId}/versions?target=${target}`, { rawBody: body, headers: { 'content-type': 'application/javascript' } });

describe('hosted upload', () => {
  it('records a 10 MB bundle with the manifest its code computes; 10 MB + 1 byte is refused (413)', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const body = bundle(hostedManifest(app.slug), { size: MAX });
    expect(body.byteLength).toBe(MAX);
    const res = await upload(app.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      appId: app.id, version: 1, target: 'preview', created: true,
      bundle: { sha256: createHash('sha256').update(body).digest('hex'), bytes: MAX },
      manifest: { slug: app.slug, hosting: 'platform', egressHosts: ['api.example.com'], blocks: [] },
    });
    expect(await stack.controlPlane.apps.bundles.has(res.body.bundle.sha256)).toBe(true);

    const over = await upload(app.id, bundle(hostedManifest(app.slug), { size: MAX + 1 }));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError', limit: MAX });
  });

  it('answers the latest version for an identical upload; the same bundle to production is a new version', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const body = bundle(hostedManifest(app.slug));
    const first = await upload(app.id, body);
    stack.clock.advance(1000);
    const again = await upload(app.id, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, created: false });
    const published = await upload(app.id, body, 'production');
    expect(published.body).toMatchObject({ version: 2, target: 'production', created: true, bundle: first.body.bundle });
    expect((await upload(app.id, body, 'production')).body).toMatchObject({ version: 2, created: false });
  });

  it('validates the computed manifest like a synced one (422 with the reason)', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const cases: Array<[unknown, string]> = [
      [hostedManifest('someone-else'), 'slug-mismatch'],
      [hostedManifest(app.slug, { hosting: 'self', endpoint: { url: 'https://x.example.com' } }), 'hosting-mismatch'],
      [hostedManifest(app.slug, { env: [{ key: 'API_KEY', secret: true, required: true }] }), 'env-missing'],
    ];
    for (const [manifest, reason] of cases) {
      const res = await upload(app.id, bundle(manifest));
      expect(res.status, reason).toBe(422);
      expect(res.body, reason).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason });
    }
  });

  it('refuses code that does not load (422 PlatformAppBundleInvalidError) or spins past the CPU budget', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const throws = await upload(app.id, bundle(hostedManifest(app.slug), { prelude: 'throw new Error("boom at load");' }));
    expect(throws.status).toBe(422);
    expect(throws.body._tag).toBe('PlatformAppBundleInvalidError');

    const notAModule = await upload(app.id, Buffer.from('this is not javascript ((('));
    expect(notAModule.status).toBe(422);
    expect(notAModule.body._tag).toBe('PlatformAppBundleInvalidError');

    const spins = await upload(app.id, bundle(hostedManifest(app.slug), { prelude: 'for (;;) {}' }));
    expect(spins.body._tag).toBe('PlatformRuntimeCpuLimitError');
    expect(spins.status).toBe(503);
    expect((await stack.v0(ws.apiKey).get(`/apps/${app.id}/manifest`)).status).toBe(404);
  });

  it('publishes production: the node resolves the app through /internal/v1 and serves it with the production env', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    await stack.v0(ws.apiKey).put(`/apps/${app.id}/env/production/REGION`, { value: 'eu-west', secret: false });
    await stack.v0(ws.apiKey).put(`/apps/${app.id}/env/production/TOKEN`, { value: 'tok' });
    const published = await upload(app.id, bundle(hostedManifest(app.slug)), 'production');
    expect(published.status).toBe(200);

    const resolved = await stack.fetch(`/internal/v1/apps/${app.slug}/production`, { headers: { authorization: `Bearer ${stack.config.runtimeSecret}` } });
    expect(await resolved.json()).toEqual({
      appId: app.id, slug: app.slug, version: 1, sha256: published.body.bundle.sha256, bytes: published.body.bundle.bytes, sourceMapSha256: null,
      egressHosts: ['api.example.com'], env: { REGION: 'eu-west', TOKEN: 'tok' }, secretEnvKeys: ['TOKEN'], baseUrl: stack.config.publicUrl,
    });

    const served = await fetch(`${env.runtimeUrl}/apps/${app.slug}/hello`);
    expect(served.status).toBe(200);
    const answer = (await served.json()) as { path: string; region: string };
    expect(answer.region).toBe('eu-west');
    expect(answer.path.endsWith('/hello')).toBe(true);
  });
});
