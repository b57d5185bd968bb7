/**
 * `PUT /v0/apps/{app_id}/manifest` and `GET /v0/apps/{app_id}/manifest`: every row of the spec's
 * "Manifest sync" and "Dev and manifest sync" error tables, the version record, an identical
 * manifest answering the latest version, and reading the published or latest preview manifest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { agentToken, createApp, deployToken, selfManifest, sync, uniqueSlug } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let app: { id: string; slug: string };
let dev: { apiKey: string };

beforeAll(async () => {
  stack = await startStack({ env: { RESERVED_DOMAINS: 'platform.test' } });
  ws = await stack.createWorkspace();
  dev = await stack.addMember(ws.apiKey, { role: 'member' });
  ({ app } = await createApp(stack.client(dev.apiKey)));
});
afterAll(async () => stack.stop());

const put = (credential: string, appId: string, body: unknown) => stack.v0(credential).put(`/apps/${appId}/manifest`, body);

describe('manifest sync: the spec\'s error rows', () => {
  it('PlatformAppNotFoundError (404): no such app, or a caller who may not deploy it', async () => {
    const outsider = await stack.addMember(ws.apiKey, { role: 'member' });
    const otherWs = await stack.createWorkspace();
    const { app: otherApp } = await createApp(ws.client);
    const cases: Array<[string, () => Promise<string>, string]> = [
      ['no such app', async () => dev.apiKey, 'app_doesnotexist'],
      ['a member who neither owns it nor administers the workspace', async () => outsider.apiKey, app.id],
      ['the owner of another workspace', async () => otherWs.apiKey, app.id],
      ['a deploy token for another app', () => deployToken(stack, otherApp.id, false), app.id],
      ['an agent builder token of a member who does not own the app', () => agentToken(stack, outsider.apiKey), app.id],
      ['an agent builder token of a workspace owner (agents act for apps the member owns)', () => agentToken(stack, ws.apiKey), app.id],
    ];
    for (const [name, credential, appId] of cases) {
      const res = await put(await credential(), appId, { manifest: selfManifest(app.slug), target: 'preview' });
      expect(res.status, name).toBe(404);
      expect(res.body, name).toMatchObject({ _tag: 'PlatformAppNotFoundError' });
    }
  });

  it('PlatformAppDeployTargetForbiddenError (403): a preview-only deploy token or an agent builder token asks for production', async () => {
    for (const credential of [await deployToken(stack, app.id, true), await agentToken(stack, dev.apiKey)]) {
      const res = await put(credential, app.id, { manifest: selfManifest(app.slug), target: 'production' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ _tag: 'PlatformAppDeployTargetForbiddenError', path: ['target'] });
      // The same credential may sync a preview.
      expect((await put(credential, app.id, { manifest: selfManifest(app.slug), target: 'preview' })).status).toBe(200);
    }
  });

  it('PlatformAppManifestInvalidError (422) with the reason, for rules that need what the service knows', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['slug-mismatch', selfManifest('someone-else'), 'slug-mismatch'],
      ['hosting-mismatch', selfManifest(app.slug, { hosting: 'platform', endpoint: undefined }), 'hosting-mismatch'],
      ['env-missing', selfManifest(app.slug, { env: [{ key: 'API_KEY', secret: true, required: true }] }), 'env-missing'],
      ['scope-undeclared', selfManifest(app.slug, { scopes: [] }), 'scope-undeclared'],
      ['reserved-domain', selfManifest(app.slug, { domains: ['links.platform.test'] }), 'reserved-domain'],
      ['invalid', selfManifest(app.slug, { unknownField: 1 }), 'invalid'],
    ];
    for (const [name, manifest, reason] of cases) {
      const res = await put(dev.apiKey, app.id, { manifest, target: 'preview' });
      expect(res.status, name).toBe(422);
      expect(res.body, name).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason });
      expect(Array.isArray(res.body.path), name).toBe(true);
    }
  });

  it('PlatformAppManifestInvalidError (422, reason invalid) for a JSON Schema ajv cannot compile', async () => {
    const manifest = selfManifest(app.slug);
    (manifest.blocks as Array<Record<string, unknown>>)[0]!.state = { type: 'object', properties: { votes: { type: 'a-number' } } };
    const res = await put(dev.apiKey, app.id, { manifest, target: 'preview' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', path: ['blocks', 0, 'state'] });
  });

  it('PlatformAppPatternInvalidError (422) with the reason', async () => {
    const manifest = selfManifest(app.slug, {
      domains: ['polls.example.com'],
      references: [{ kind: 'poll', title: 'Poll', patterns: [{ id: 'p', pattern: 'http://polls.example.com/p/:id' }] }],
    });
    const res = await put(dev.apiKey, app.id, { manifest, target: 'preview' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppPatternInvalidError', reason: 'not-https' });
  });

  it('PlatformApiInvalidRequestError (400) for a body without its target or with unknown fields', async () => {
    const noTarget = await put(dev.apiKey, app.id, { manifest: selfManifest(app.slug) });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.issues.map((i: { path: string[] }) => i.path)).toContainEqual(['target']);
    const extra = await put(dev.apiKey, app.id, { manifest: selfManifest(app.slug), target: 'preview', force: true });
    expect(extra.status).toBe(400);
    const badTarget = await put(dev.apiKey, app.id, { manifest: selfManifest(app.slug), target: 'staging' });
    expect(badTarget.status).toBe(400);
  });

  it('refuses hosted apps publishing production without their bundle (403), previews are fine', async () => {
    const { app: hosted } = await createApp(ws.client, { hosting: 'platform' });
    const manifest = selfManifest(hosted.slug, { hosting: 'platform', endpoint: undefined });
    const res = await put(ws.apiKey, hosted.id, { manifest, target: 'production' });
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformAppDeployTargetForbiddenError');
    expect((await put(ws.apiKey, hosted.id, { manifest, target: 'preview' })).status).toBe(200);
  });
});

describe('versions', () => {
  it('records numbered versions; an identical manifest (same target, any key order) answers the latest', async () => {
    const { app: a } = await createApp(ws.client, { slug: uniqueSlug('versions') });
    const manifest = selfManifest(a.slug);
    const first = await sync(stack, ws.apiKey, a.id, manifest, 'preview');
    expect(first).toMatchObject({ appId: a.id, version: 1, target: 'preview', created: true, added: [] });
    expect(first.manifestSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.manifest).toMatchObject({ slug: a.slug, hosting: 'self', egressHosts: [], events: [] });
    expect(first.createdAt).toBe(new Date(stack.clock.now()).toISOString());

    const reordered = Object.fromEntries(Object.entries(manifest).reverse());
    stack.clock.advance(1000);
    const same = await sync(stack, ws.apiKey, a.id, reordered, 'preview');
    expect(same).toEqual({ ...first, created: false });

    // Defaults spelled out are the same manifest too.
    expect((await sync(stack, ws.apiKey, a.id, { ...manifest, events: [], egressHosts: [] }, 'preview')).version).toBe(1);

    const published = await sync(stack, ws.apiKey, a.id, manifest, 'production');
    expect(published).toMatchObject({ version: 2, target: 'production', created: true });
    expect((await sync(stack, ws.apiKey, a.id, manifest, 'production'))).toMatchObject({ version: 2, created: false });

    const wider = await sync(stack, ws.apiKey, a.id, selfManifest(a.slug, { scopes: ['blocks:write', 'replies:write'] }), 'production');
    expect(wider).toMatchObject({ version: 3, created: true, added: [{ kind: 'scope', detail: 'replies:write' }] });
  });

  it('numbers concurrent syncs one after the other', async () => {
    const { app: a } = await createApp(ws.client, { slug: uniqueSlug('busy') });
    const answers = await Promise.all([1, 2, 3, 4].map((n) =>
      stack.v0(ws.apiKey).put(`/apps/${a.id}/manifest`, { manifest: selfManifest(a.slug, { name: `Polls ${n}` }), target: 'preview' })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4]);
  });

  it('GET answers the published manifest, else the latest preview, or the latest of a target', async () => {
    const { app: a } = await createApp(ws.client, { slug: uniqueSlug('reader') });
    const get = (query = '') => stack.v0(ws.apiKey).get(`/apps/${a.id}/manifest${query}`);
    expect((await get()).status).toBe(404);
    await sync(stack, ws.apiKey, a.id, selfManifest(a.slug, { name: 'Preview one' }), 'preview');
    expect((await get()).body).toMatchObject({ appId: a.id, version: 1, target: 'preview', manifest: { name: 'Preview one' } });
    await sync(stack, ws.apiKey, a.id, selfManifest(a.slug, { name: 'Published' }), 'production');
    await sync(stack, ws.apiKey, a.id, selfManifest(a.slug, { name: 'Preview two' }), 'preview');
    expect((await get()).body).toMatchObject({ version: 2, target: 'production', manifest: { name: 'Published' } });
    expect((await get('?target=preview')).body).toMatchObject({ version: 3, manifest: { name: 'Preview two' } });
    expect((await get('?target=production')).body.version).toBe(2);
    // Reading needs only access to the app: a preview-only deploy token reads production too.
    expect((await stack.v0(await deployToken(stack, a.id, true)).get(`/apps/${a.id}/manifest?target=production`)).status).toBe(200);
    expect((await stack.v0(await deployToken(stack, app.id, false)).get(`/apps/${a.id}/manifest`)).status).toBe(404);
  });
});
