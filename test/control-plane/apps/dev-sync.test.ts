/**
 * `PUT /v0/apps/dev`: every row of the spec's "Dev sync" and "Dev and manifest sync" error tables,
 * and what a sync does: the development app created once per member and slug with a random
 * suffix, the manifest recorded as a preview, the dev install created and kept on it, the signing
 * secret revealed only to member API keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { agentToken, createApp, deployToken, selfManifest, uniqueSlug } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
});
afterAll(async () => stack.stop());

const devSync = (credential: string, manifest: unknown, query = '') => stack.v0(credential).put(`/apps/dev${query}`, { manifest });

describe('dev sync', () => {
  it('creates the development app on first use, then syncs previews into it and keeps the dev install on them', async () => {
    const base = uniqueSlug('polls');
    const first = await devSync(ws.apiKey, selfManifest(base));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ version: 1, created: true });
    expect(first.body.slug).toMatch(new RegExp(`^${base}-[a-z2-7]{4}$`));
    expect(first.body.clientId).toMatch(/^cli_/);
    expect(first.body.playgroundUrl).toBe(`${stack.config.publicUrl}/console/apps/${first.body.appId}/playground`);
    expect(first.body.signingSecret).toBeUndefined();

    const installs = (await ws.client.get('/installs')).body.items;
    expect(installs).toContainEqual(expect.objectContaining({
      id: first.body.devInstallId, appId: first.body.appId, kind: 'dev', version: 1, scopes: ['blocks:write'], status: 'active',
    }));
    const { rows: events } = await stack.db.query<{ type: string; payload: unknown }>('select type, payload from outbox_events where install_id = $1', [first.body.devInstallId]);
    expect(events).toEqual([{ type: 'app.installed', payload: { install: { id: first.body.devInstallId, workspaceId: ws.workspace.id, kind: 'dev', version: expect.any(Number) } } }]);

    const app = (await ws.client.get(`/apps/${first.body.appId}`)).body.app;
    expect(app).toMatchObject({ slug: first.body.slug, private: true, development: true });

    const same = await devSync(ws.apiKey, selfManifest(base));
    expect(same.body).toMatchObject({ appId: first.body.appId, slug: first.body.slug, devInstallId: first.body.devInstallId, version: 1, created: false });

    const next = await devSync(ws.apiKey, selfManifest(base, { scopes: ['blocks:write', 'replies:write'], name: 'Polls v2' }));
    expect(next.body).toMatchObject({ appId: first.body.appId, devInstallId: first.body.devInstallId, version: 2, created: false });
    expect((await ws.client.get(`/installs/${first.body.devInstallId}`)).body.install).toMatchObject({ version: 2, scopes: ['blocks:write', 'replies:write'] });
    const manifest = await stack.v0(ws.apiKey).get(`/apps/${first.body.appId}/manifest`);
    expect(manifest.body).toMatchObject({ version: 2, target: 'preview', manifest: { slug: first.body.slug, name: 'Polls v2' } });
  });

  it('gives each member their own development app for the same slug', async () => {
    const base = uniqueSlug('shared');
    const other = await stack.addMember(ws.apiKey, { role: 'member' });
    const mine = await devSync(ws.apiKey, selfManifest(base));
    const theirs = await devSync(other.apiKey, selfManifest(base));
    expect(theirs.body.created).toBe(true);
    expect(theirs.body.appId).not.toBe(mine.body.appId);
    expect(theirs.body.slug).not.toBe(mine.body.slug);
  });

  it('reveals the signing secret to member API keys with ?reveal=signing-secret, never to agent builder tokens', async () => {
    const base = uniqueSlug('reveal');
    const member = await devSync(ws.apiKey, selfManifest(base), '?reveal=signing-secret');
    expect(member.body.signingSecret).toMatch(/^whsec_/);
    expect((await ws.client.get(`/apps/${member.body.appId}/credentials`)).body.signingSecret).toBe(member.body.signingSecret);

    const agent = await devSync(await agentToken(stack, ws.apiKey), selfManifest(base), '?reveal=signing-secret');
    expect(agent.status).toBe(200);
    expect(agent.body.appId).toBe(member.body.appId);
    expect(agent.body).not.toHaveProperty('signingSecret');

    expect((await devSync(ws.apiKey, selfManifest(base), '?reveal=everything')).status).toBe(400);
  });
});

describe('dev sync: the spec\'s error rows', () => {
  it('PlatformAppDeployTargetForbiddenError (403): a deploy token', async () => {
    const { app } = await createApp(ws.client);
    for (const previewOnly of [true, false]) {
      const res = await devSync(await deployToken(stack, app.id, previewOnly), selfManifest(uniqueSlug()));
      expect(res.status).toBe(403);
      expect(res.body._tag).toBe('PlatformAppDeployTargetForbiddenError');
    }
  });

  it('PlatformAppsUnavailableError (403): apps are turned off in the workspace', async () => {
    const w = await stack.createWorkspace();
    await w.client.put('/app-settings', { appsEnabled: false });
    for (const credential of [w.apiKey, await agentToken(stack, w.apiKey)]) {
      const res = await devSync(credential, selfManifest(uniqueSlug()));
      expect(res.status).toBe(403);
      expect(res.body._tag).toBe('PlatformAppsUnavailableError');
    }
    expect((await stack.db.query('select 1 from apps where workspace_id = $1', [w.workspace.id])).rowCount).toBe(0);
  });

  it('PlatformAppManifestInvalidError (422) with the reason', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [selfManifest(uniqueSlug(), { scopes: [] }), 'scope-undeclared'],
      [selfManifest('platform-polls'), 'reserved-name'],
      [selfManifest(uniqueSlug(), { hosting: 'self', endpoint: undefined }), 'endpoint-required'],
      [selfManifest(uniqueSlug(), { schemaVersion: 2 }), 'invalid'],
    ];
    for (const [manifest, reason] of cases) {
      const res = await devSync(ws.apiKey, manifest);
      expect(res.status, reason).toBe(422);
      expect(res.body, reason).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason });
    }
  });

  it('PlatformAppManifestInvalidError (422, env-missing) once the app exists and lacks a value; setting it lets the sync through', async () => {
    const base = uniqueSlug('env');
    const manifest = selfManifest(base, { env: [{ key: 'TOKEN', secret: true, required: true }] });
    const refused = await devSync(ws.apiKey, manifest);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ reason: 'env-missing', path: ['env', 0, 'key'] });
    // The app was created by the refused sync: set the variable on it and sync again.
    const app = (await ws.client.get('/apps')).body.items.find((a: { slug: string }) => a.slug.startsWith(`${base}-`));
    expect((await stack.v0(ws.apiKey).put(`/apps/${app.id}/env/preview/TOKEN`, { value: 's3cret' })).status).toBe(200);
    expect((await devSync(ws.apiKey, manifest)).body).toMatchObject({ appId: app.id, version: 1, created: false });
  });

  it('PlatformAppPatternInvalidError (422) with the reason', async () => {
    const manifest = selfManifest(uniqueSlug(), {
      domains: ['polls.example.com'],
      references: [{ kind: 'poll', title: 'Poll', patterns: [{ id: 'p', pattern: 'https://polls.example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q' }] }],
    });
    const res = await devSync(ws.apiKey, manifest);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppPatternInvalidError', reason: 'too-many-segments' });
  });

  it('PlatformAppDevSlugUnavailableError (409): no free slug after every try', async () => {
    // Every suffix this stack draws is the same, so the second member's tries all collide.
    const fixed = await startStack({ apps: { devSlugSuffix: () => 'aaaa' } });
    try {
      const w = await fixed.createWorkspace();
      const other = await fixed.addMember(w.apiKey, { role: 'member' });
      const first = await fixed.v0(w.apiKey).put('/apps/dev', { manifest: selfManifest('crowded') });
      expect(first.body.slug).toBe('crowded-aaaa');
      const res = await fixed.v0(other.apiKey).put('/apps/dev', { manifest: selfManifest('crowded') });
      expect(res.status).toBe(409);
      expect(res.body._tag).toBe('PlatformAppDevSlugUnavailableError');
      // The first member keeps syncing into their app.
      expect((await fixed.v0(w.apiKey).put('/apps/dev', { manifest: selfManifest('crowded') })).status).toBe(200);
    } finally {
      await fixed.stop();
    }
  });
});
