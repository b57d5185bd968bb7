/**
 * Environment variables per app and target (`/v0/apps/{app_id}/env/{target}[/{key}]`): values at
 * most 5 KB, 128 per environment, secret values write-only and every value sealed at rest,
 * `env-missing` judged against the target's values, and who may touch which target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { agentToken, createApp, deployToken, selfManifest, sync } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
});
afterAll(async () => stack.stop());

const env = (credential = ws.apiKey) => stack.v0(credential);

describe('environment variables', () => {
  it('sets, lists and deletes; secret values (the default) are never shown; every value is sealed at rest', async () => {
    const { app } = await createApp(ws.client);
    const secret = await env().put(`/apps/${app.id}/env/production/API_TOKEN`, { value: 'tok-123' });
    expect(secret.status).toBe(200);
    expect(secret.body).toMatchObject({ key: 'API_TOKEN', secret: true });
    expect(secret.body).not.toHaveProperty('value');
    const plain = await env().put(`/apps/${app.id}/env/production/REGION`, { value: 'eu-west', secret: false });
    expect(plain.body).toMatchObject({ key: 'REGION', secret: false, value: 'eu-west' });

    const list = await env().get(`/apps/${app.id}/env/production`);
    expect(list.status).toBe(200);
    expect(list.body.target).toBe('production');
    expect(list.body.items.map((i: { key: string; value?: string }) => [i.key, i.value])).toEqual([['API_TOKEN', undefined], ['REGION', 'eu-west']]);
    expect((await env().get(`/apps/${app.id}/env/preview`)).body.items).toEqual([]);

    const { rows } = await stack.db.query<{ key: string; value_enc: string }>('select key, value_enc from app_env_vars where app_id = $1', [app.id]);
    for (const row of rows) {
      expect(row.value_enc.startsWith('v1.')).toBe(true);
      expect(row.value_enc).not.toContain('tok-123');
      expect(row.value_enc).not.toContain('eu-west');
    }

    expect((await env().delete(`/apps/${app.id}/env/production/REGION`)).status).toBe(204);
    expect((await env().delete(`/apps/${app.id}/env/production/REGION`)).status).toBe(404);
    expect((await env().get(`/apps/${app.id}/env/production`)).body.items.map((i: { key: string }) => i.key)).toEqual(['API_TOKEN']);
  });

  it('keeps a key the manifest declares secret secret, whatever the caller says', async () => {
    const { app } = await createApp(ws.client);
    await env().put(`/apps/${app.id}/env/preview/WEBHOOK_KEY`, { value: 'x' });
    await sync(stack, ws.apiKey, app.id, selfManifest(app.slug, { env: [{ key: 'WEBHOOK_KEY', secret: true, required: true }] }), 'preview');
    const res = await env().put(`/apps/${app.id}/env/preview/WEBHOOK_KEY`, { value: 'y', secret: false });
    expect(res.body).toMatchObject({ key: 'WEBHOOK_KEY', secret: true });
    expect(res.body).not.toHaveProperty('value');
  });

  it('takes values up to 5 KB (UTF-8 bytes) and refuses one byte more; refuses malformed keys and targets', async () => {
    const { app } = await createApp(ws.client);
    expect((await env().put(`/apps/${app.id}/env/preview/BIG`, { value: 'a'.repeat(5 * 1024) })).status).toBe(200);
    const over = await env().put(`/apps/${app.id}/env/preview/BIG`, { value: 'a'.repeat(5 * 1024 - 1) + 'é' });
    expect(over.status).toBe(400);
    expect(over.body.issues[0].path).toEqual(['value']);
    for (const bad of ['1ABC', 'A-B', 'X'.repeat(65)]) {
      const res = await env().put(`/apps/${app.id}/env/preview/${bad}`, { value: 'v' });
      expect(res.status, bad).toBe(400);
      expect(res.body.issues[0].path, bad).toEqual(['key']);
    }
    const target = await env().put(`/apps/${app.id}/env/staging/KEY`, { value: 'v' });
    expect(target.status).toBe(400);
    expect(target.body.issues[0].path).toEqual(['target']);
  });

  it('holds at most 128 variables per environment; updating one of them still works; the other target is separate', async () => {
    const { app } = await createApp(ws.client);
    for (let i = 0; i < 128; i++) {
      const res = await env().put(`/apps/${app.id}/env/production/VAR_${i}`, { value: String(i), secret: false });
      expect(res.status).toBe(200);
    }
    const over = await env().put(`/apps/${app.id}/env/production/VAR_128`, { value: 'x' });
    expect(over.status).toBe(409);
    expect(over.body._tag).toBe('PlatformApiConflictError');
    expect((await env().put(`/apps/${app.id}/env/production/VAR_0`, { value: 'changed', secret: false })).body.value).toBe('changed');
    expect((await env().put(`/apps/${app.id}/env/preview/VAR_128`, { value: 'x' })).status).toBe(200);
    expect((await env().get(`/apps/${app.id}/env/production`)).body.items).toHaveLength(128);
  });

  it('judges env-missing against the target\'s values when a version is accepted', async () => {
    const { app } = await createApp(ws.client);
    const manifest = selfManifest(app.slug, { env: [{ key: 'API_TOKEN', secret: true, required: true }, { key: 'MODE', secret: false, required: false }] });
    await env().put(`/apps/${app.id}/env/preview/API_TOKEN`, { value: 'preview-token' });
    expect((await env().put(`/apps/${app.id}/manifest`, { manifest, target: 'preview' })).status).toBe(200);
    const production = await env().put(`/apps/${app.id}/manifest`, { manifest, target: 'production' });
    expect(production.status).toBe(422);
    expect(production.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'env-missing', path: ['env', 0, 'key'] });
    // An empty string is a value.
    await env().put(`/apps/${app.id}/env/production/API_TOKEN`, { value: '' });
    expect((await env().put(`/apps/${app.id}/manifest`, { manifest, target: 'production' })).status).toBe(200);
  });

  it('lets preview-only credentials touch previews only', async () => {
    const { app } = await createApp(ws.client);
    for (const credential of [await deployToken(stack, app.id, true), await agentToken(stack, ws.apiKey)]) {
      expect((await env(credential).put(`/apps/${app.id}/env/preview/KEY`, { value: 'v' })).status).toBe(200);
      for (const res of [
        await env(credential).put(`/apps/${app.id}/env/production/KEY`, { value: 'v' }),
        await env(credential).get(`/apps/${app.id}/env/production`),
        await env(credential).delete(`/apps/${app.id}/env/production/KEY`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body._tag).toBe('PlatformAppDeployTargetForbiddenError');
      }
    }
    const otherApp = (await createApp(ws.client)).app;
    const foreign = await env(await deployToken(stack, otherApp.id, false)).get(`/apps/${app.id}/env/preview`);
    expect(foreign.status).toBe(404);
    expect(foreign.body._tag).toBe('PlatformAppNotFoundError');
  });
});
