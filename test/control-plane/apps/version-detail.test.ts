/**
 * `GET /v0/apps/{app_id}/versions/{version}`: one version as the list shows it, with the manifest
 * it was accepted with (defaults applied) and what it adds over the production version before it;
 * a version the app does not have, a number that is not one, and a member who may not manage the
 * app are refused with tagged errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { createApp, selfManifest, sync, type CreatedApp } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let app: CreatedApp;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
  app = await createApp(ws.client);
  await sync(stack, ws.apiKey, app.app.id, selfManifest(app.app.slug), 'production');
  await sync(stack, ws.apiKey, app.app.id, selfManifest(app.app.slug, { scopes: ['blocks:write', 'conversations:read'] }), 'preview');
  await sync(stack, ws.apiKey, app.app.id, selfManifest(app.app.slug, { scopes: ['blocks:write', 'conversations:read'], events: ['post.created'] }), 'production');
});
afterAll(async () => stack.stop());

describe('GET /v0/apps/{app_id}/versions/{version}', () => {
  it('answers a version with its manifest, as the list shows it', async () => {
    const res = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/versions/3`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const listed = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/versions`);
    const { manifest, appId, ...summary } = res.body;
    expect(summary).toEqual(listed.body.items.find((v: { version: number }) => v.version === 3));
    expect(appId).toBe(app.app.id);
    expect(summary).toMatchObject({ target: 'production', live: true, rollbackOf: null, bundle: null });
    expect(summary.added).toEqual([{ kind: 'scope', detail: 'conversations:read' }, { kind: 'event', detail: 'post.created' }]);
    expect(manifest).toMatchObject({ slug: app.app.slug, scopes: ['blocks:write', 'conversations:read'], events: ['post.created'], egressHosts: [] });
  });

  it('compares a preview with the production version before it, like the list', async () => {
    const res = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/versions/2`);
    expect(res.body).toMatchObject({ version: 2, target: 'preview', live: false, added: [{ kind: 'scope', detail: 'conversations:read' }] });
    const first = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/versions/1`);
    expect(first.body).toMatchObject({ version: 1, live: false, added: [] });
  });

  it('refuses a version the app does not have, a number that is not one, and a member who may not manage the app', async () => {
    const missing = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/versions/9`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: ['version'] });
    const bad = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/versions/latest`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['version'] });
    const other = await stack.addMember(ws.apiKey, { role: 'member' });
    const hidden = await stack.v0(other.apiKey).get(`/apps/${app.app.id}/versions/1`);
    expect(hidden.status).toBe(404);
    expect(hidden.body._tag).toBe('PlatformAppNotFoundError');
  });
});
