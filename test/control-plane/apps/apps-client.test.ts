/**
 * Apps in the developer area (client API): creating one, its credentials (client secret shown once
 * and stored hashed, signing secret sealed), both rotations, who may see an app, and the workspace
 * setting that turns apps off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery, signDelivery } from '@platform/sdk';
import { hashClientSecret } from '../../../control-plane/src/apps/credentials/client-secret.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { basic } from '../credentials/fixtures.ts';
import { createApp, uniqueSlug } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
});
afterAll(async () => stack.stop());

describe('creating an app', () => {
  it('answers the app, its client id, the client secret once and a whsec_ signing secret', async () => {
    const slug = uniqueSlug('polls');
    const res = await ws.client.post('/apps', { name: 'Polls', slug, hosting: 'self', endpoint: { url: 'https://polls.example.com/platform' } });
    expect(res.status).toBe(201);
    expect(res.body.app).toMatchObject({ slug, name: 'Polls', hosting: 'self', private: false, development: false });
    expect(res.body.clientId).toBe(res.body.app.clientId);
    expect(res.body.clientSecret).toMatch(/^platsec_/);
    expect(res.body.signingSecret).toMatch(/^whsec_/);

    const { rows } = await stack.db.query<{ client_secret_hash: string; signing_secret_enc: string }>(
      'select client_secret_hash, signing_secret_enc from apps where id = $1', [res.body.app.id]);
    expect(rows[0]!.client_secret_hash).toBe(hashClientSecret(res.body.clientSecret));
    expect(rows[0]!.signing_secret_enc).not.toContain(res.body.signingSecret.slice(6));
    expect(rows[0]!.signing_secret_enc.startsWith('v1.')).toBe(true);
  });

  it('refuses a taken slug (409), reserved names (422 reserved-name) and endpoints that do not fit the hosting', async () => {
    const { app } = await createApp(ws.client);
    const taken = await ws.client.post('/apps', { name: 'Other', slug: app.slug, hosting: 'platform' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ _tag: 'PlatformApiConflictError', path: ['slug'] });

    const reserved = await ws.client.post('/apps', { name: 'Polls', slug: 'platform-polls', hosting: 'platform' });
    expect(reserved.status).toBe(422);
    expect(reserved.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'reserved-name' });

    const noEndpoint = await ws.client.post('/apps', { name: 'Polls', slug: uniqueSlug(), hosting: 'self' });
    expect(noEndpoint.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'endpoint-required' });
    const extraEndpoint = await ws.client.post('/apps', { name: 'Polls', slug: uniqueSlug(), hosting: 'platform', endpoint: { url: 'https://x.example.com' } });
    expect(extraEndpoint.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'endpoint-unexpected' });

    const badSlug = await ws.client.post('/apps', { name: 'Polls', slug: 'No Caps', hosting: 'platform' });
    expect(badSlug.status).toBe(400);
    expect(badSlug.body.issues[0].path).toEqual(['slug']);
  });
});

describe('reading apps', () => {
  it('shows an app to its owner and to workspace admins, and to nobody else', async () => {
    const dev = await stack.addMember(ws.apiKey, { role: 'member' });
    const other = await stack.addMember(ws.apiKey, { role: 'member' });
    const { app } = await createApp(dev.client);

    expect((await dev.client.get(`/apps/${app.id}`)).status).toBe(200);
    expect((await ws.client.get(`/apps/${app.id}`)).status).toBe(200);
    const hidden = await other.client.get(`/apps/${app.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body._tag).toBe('PlatformAppNotFoundError');
    expect((await other.client.get(`/apps/${app.id}/credentials`)).status).toBe(404);

    expect((await dev.client.get('/apps')).body.items.map((a: { id: string }) => a.id)).toEqual([app.id]);
    expect((await other.client.get('/apps')).body.items).toEqual([]);
    expect((await ws.client.get('/apps')).body.items.map((a: { id: string }) => a.id)).toContain(app.id);

    const elsewhere = await stack.createWorkspace();
    expect((await elsewhere.client.get(`/apps/${app.id}`)).status).toBe(404);
  });
});

describe('signing secret rotation', () => {
  it('signs with both secrets for 24 hours, then with the new one only', async () => {
    const created = await createApp(ws.client);
    const rotated = await ws.client.post(`/apps/${created.app.id}/signing-secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.signingSecret).not.toBe(created.signingSecret);
    expect(rotated.body.previousSigningSecret.secret).toBe(created.signingSecret);
    expect(Date.parse(rotated.body.previousSigningSecret.expiresAt) - stack.clock.now()).toBe(24 * 3600 * 1000);

    const creds = await ws.client.get(`/apps/${created.app.id}/credentials`);
    expect(creds.body).toMatchObject({ signingSecret: rotated.body.signingSecret, previousSigningSecret: { secret: created.signingSecret } });

    // What the delivery engine signs with: both now, so an app still on the old secret verifies.
    const secrets = await stack.controlPlane.apps.apps.signingSecrets(created.app.id);
    expect(secrets).toEqual([rotated.body.signingSecret, created.signingSecret]);
    const body = '{"type":"app.installed"}';
    const timestamp = Math.floor(stack.clock.now() / 1000);
    const signatures = await Promise.all(secrets.map((secret) => signDelivery({ id: 'msg_1', timestamp, body, secret })));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
    expect((await verifyDelivery({ headers, body, secret: created.signingSecret, now: stack.clock.now() })).ok).toBe(true);
    expect((await verifyDelivery({ headers, body, secret: rotated.body.signingSecret, now: stack.clock.now() })).ok).toBe(true);

    stack.clock.advance(24 * 3600 * 1000);
    expect(await stack.controlPlane.apps.apps.signingSecrets(created.app.id)).toEqual([rotated.body.signingSecret]);
    expect((await ws.client.get(`/apps/${created.app.id}/credentials`)).body.previousSigningSecret).toBeNull();
  });
});

describe('client secret rotation', () => {
  it('shows the new secret once; the old one stops minting install tokens at once', async () => {
    const created = await createApp(ws.client);
    const rotated = await ws.client.post(`/apps/${created.app.id}/client-secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.clientId).toBe(created.clientId);
    expect(rotated.body.clientSecret).not.toBe(created.clientSecret);
    // Any install id: the credential is judged before the install is looked up.
    const mint = (secret: string) => stack.v0().request('POST', '/apps/installs/ins_none/access-tokens', {
      body: {}, headers: { authorization: basic(created.clientId, secret) },
    });
    expect((await mint(created.clientSecret)).status).toBe(401);
    expect((await mint(rotated.body.clientSecret)).status).not.toBe(401);
  });
});

describe('turning apps off in a workspace', () => {
  it('lets owners and admins turn apps off; then creating apps answers PlatformAppsUnavailableError', async () => {
    const w = await stack.createWorkspace();
    const member = await stack.addMember(w.apiKey, { role: 'member' });
    expect((await w.client.get('/app-settings')).body).toEqual({ appsEnabled: true });
    expect((await member.client.put('/app-settings', { appsEnabled: false })).status).toBe(403);
    expect((await w.client.put('/app-settings', { appsEnabled: false })).body).toEqual({ appsEnabled: false });
    const refused = await member.client.post('/apps', { name: 'Polls', slug: uniqueSlug(), hosting: 'platform' });
    expect(refused.status).toBe(403);
    expect(refused.body._tag).toBe('PlatformAppsUnavailableError');
    await w.client.put('/app-settings', { appsEnabled: true });
    expect((await member.client.post('/apps', { name: 'Polls', slug: uniqueSlug(), hosting: 'platform' })).status).toBe(201);
  });
});
