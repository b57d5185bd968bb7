/**
 * Circles through the client API: visibility, membership, connections and app invitations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type ApiClient, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let ownerKey: string;
let owner: ApiClient;
let admin: { member: { id: string }; client: ApiClient };
let ann: { member: { id: string }; client: ApiClient };
let bob: { member: { id: string }; client: ApiClient };

beforeAll(async () => {
  stack = await startStack();
  ({ apiKey: ownerKey, client: owner } = await stack.createWorkspace());
  admin = await stack.addMember(ownerKey, { name: 'Admin', role: 'admin' });
  ann = await stack.addMember(ownerKey, { name: 'Ann', role: 'member' });
  bob = await stack.addMember(ownerKey, { name: 'Bob', role: 'member' });
});
afterAll(async () => stack.stop());

describe('circles', () => {
  it('creates public and private circles; the creator is their first member', async () => {
    const res = await ann.client.post('/circles', { name: 'Design', visibility: 'public', chat: true });
    expect(res.status).toBe(201);
    expect(res.body.circle).toMatchObject({
      id: expect.stringMatching(/^cir_/), name: 'Design', visibility: 'public', chat: true,
      connected: false, connectedWorkspaceId: null, readOnly: false, isMember: true,
    });
    const priv = await ann.client.post('/circles', { name: 'Secret', visibility: 'private' });
    expect(priv.body.circle).toMatchObject({ visibility: 'private', chat: false });
    const members = await ann.client.get(`/circles/${priv.body.circle.id}/members`);
    expect(members.body.items.map((m: { id: string }) => m.id)).toEqual([ann.member.id]);
  });

  it('shows public circles to everyone and private circles only to their members', async () => {
    const pub = (await ann.client.post('/circles', { name: 'Open', visibility: 'public' })).body.circle;
    const priv = (await ann.client.post('/circles', { name: 'Closed', visibility: 'private' })).body.circle;
    expect((await bob.client.get(`/circles/${pub.id}`)).body.circle).toMatchObject({ id: pub.id, isMember: false });
    const hidden = await bob.client.get(`/circles/${priv.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body._tag).toBe('PlatformApiNotFoundError');
    // Even owners do not see private circles they are not in.
    expect((await owner.get(`/circles/${priv.id}`)).status).toBe(404);
    const bobList = (await bob.client.get('/circles?limit=200')).body.items.map((c: { id: string }) => c.id);
    expect(bobList).toContain(pub.id);
    expect(bobList).not.toContain(priv.id);
  });

  it('does not show circles of other workspaces', async () => {
    const other = await stack.createWorkspace();
    const theirs = (await other.client.post('/circles', { name: 'Theirs', visibility: 'public' })).body.circle;
    expect((await ann.client.get(`/circles/${theirs.id}`)).status).toBe(404);
  });
});

describe('circle membership', () => {
  it('lets anyone join a public circle and leave it', async () => {
    const pub = (await ann.client.post('/circles', { name: 'Joinable', visibility: 'public' })).body.circle;
    expect((await bob.client.put(`/circles/${pub.id}/members/${bob.member.id}`)).status).toBe(204);
    expect((await bob.client.get(`/circles/${pub.id}`)).body.circle.isMember).toBe(true);
    expect((await bob.client.put(`/circles/${pub.id}/members/${bob.member.id}`)).status).toBe(204); // idempotent
    expect((await bob.client.delete(`/circles/${pub.id}/members/${bob.member.id}`)).status).toBe(204);
    expect((await bob.client.get(`/circles/${pub.id}`)).body.circle.isMember).toBe(false);
  });

  it('lets members of a private circle add others; the added member then sees it', async () => {
    const priv = (await ann.client.post('/circles', { name: 'Inner', visibility: 'private' })).body.circle;
    expect((await bob.client.put(`/circles/${priv.id}/members/${bob.member.id}`)).status).toBe(404);
    expect((await ann.client.put(`/circles/${priv.id}/members/${bob.member.id}`)).status).toBe(204);
    expect((await bob.client.get(`/circles/${priv.id}`)).status).toBe(200);
  });

  it('refuses adding others to a public circle one is not in (unless admin), and unknown members', async () => {
    const pub = (await ann.client.post('/circles', { name: 'Guarded', visibility: 'public' })).body.circle;
    const res = await bob.client.put(`/circles/${pub.id}/members/${admin.member.id}`);
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformApiForbiddenError');
    expect((await admin.client.put(`/circles/${pub.id}/members/${bob.member.id}`)).status).toBe(204);
    expect((await ann.client.put(`/circles/${pub.id}/members/mem_unknown`)).status).toBe(404);
  });

  it('lets only admins or the creator remove others', async () => {
    const pub = (await ann.client.post('/circles', { name: 'Removals', visibility: 'public' })).body.circle;
    await bob.client.put(`/circles/${pub.id}/members/${bob.member.id}`);
    await admin.client.put(`/circles/${pub.id}/members/${admin.member.id}`);
    expect((await bob.client.delete(`/circles/${pub.id}/members/${admin.member.id}`)).status).toBe(403);
    expect((await ann.client.delete(`/circles/${pub.id}/members/${bob.member.id}`)).status).toBe(204);
    expect((await admin.client.delete(`/circles/${pub.id}/members/${ann.member.id}`)).status).toBe(204);
    expect((await admin.client.delete(`/circles/${pub.id}/members/${ann.member.id}`)).status).toBe(404);
  });
});

describe('connected circles', () => {
  it('admins connect a circle to another workspace, then end the connection: it becomes read-only', async () => {
    const partner = await stack.createWorkspace({ name: 'Partner' });
    const circle = (await admin.client.post('/circles', { name: 'Shared', visibility: 'public', chat: true })).body.circle;
    expect((await ann.client.post(`/circles/${circle.id}/connection`, { workspaceId: partner.workspace.id })).status).toBe(403);

    const connected = await admin.client.post(`/circles/${circle.id}/connection`, { workspaceId: partner.workspace.id });
    expect(connected.status).toBe(200);
    expect(connected.body.circle).toMatchObject({ connected: true, connectedWorkspaceId: partner.workspace.id, readOnly: false });
    expect((await admin.client.post(`/circles/${circle.id}/connection`, { workspaceId: partner.workspace.id })).status).toBe(409);
    // Members still post while connected.
    expect((await admin.client.post(`/circles/${circle.id}/messages`, { markdown: 'hello partner' })).status).toBe(201);

    const ended = await admin.client.delete(`/circles/${circle.id}/connection`);
    expect(ended.status).toBe(200);
    expect(ended.body.circle).toMatchObject({ connected: true, readOnly: true });
    expect((await admin.client.delete(`/circles/${circle.id}/connection`)).status).toBe(409);

    const post = await admin.client.post(`/circles/${circle.id}/messages`, { markdown: 'too late' });
    expect(post.status).toBe(403);
    expect(post.body._tag).toBe('PlatformApiForbiddenError');
    expect((await admin.client.post(`/circles/${circle.id}/conversations`, { title: 'x' })).status).toBe(403);
    // History stays readable.
    expect((await admin.client.get(`/circles/${circle.id}/messages`)).body.items).toHaveLength(1);
  });

  it('refuses connecting to one\'s own or an unknown workspace', async () => {
    const circle = (await owner.post('/circles', { name: 'Solo', visibility: 'public' })).body.circle;
    const me = (await owner.get('/me')).body.workspace.id;
    const own = await owner.post(`/circles/${circle.id}/connection`, { workspaceId: me });
    expect(own.status).toBe(400);
    expect(own.body.issues[0].path).toEqual(['workspaceId']);
    expect((await owner.post(`/circles/${circle.id}/connection`, { workspaceId: 'ws_unknown' })).status).toBe(404);
  });
});

describe('app invitations', () => {
  let appId: string;
  beforeAll(async () => {
    const created = await ann.client.post('/apps', { name: 'Invited', slug: 'invited-app', hosting: 'self', endpoint: { url: 'https://invited.example.com/hook' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    appId = created.body.app.id;
  });

  it('invites apps into private circles (idempotent), lists and withdraws them', async () => {
    const priv = (await ann.client.post('/circles', { name: 'With apps', visibility: 'private' })).body.circle;
    const invited = await ann.client.put(`/circles/${priv.id}/app-invitations/${appId}`);
    expect(invited.status).toBe(200);
    expect(invited.body.invitation).toMatchObject({ circleId: priv.id, appId, invitedBy: ann.member.id });
    expect((await ann.client.put(`/circles/${priv.id}/app-invitations/${appId}`)).status).toBe(200);
    expect((await ann.client.get(`/circles/${priv.id}/app-invitations`)).body.items.map((i: { appId: string }) => i.appId)).toEqual([appId]);
    const row = await stack.db.query('select * from circle_app_invitations where circle_id = $1 and app_id = $2', [priv.id, appId]);
    expect(row.rowCount).toBe(1);
    expect((await ann.client.delete(`/circles/${priv.id}/app-invitations/${appId}`)).status).toBe(204);
    expect((await ann.client.delete(`/circles/${priv.id}/app-invitations/${appId}`)).status).toBe(404);
  });

  it('refuses invitations to public circles, bad app ids, and callers who cannot see the circle', async () => {
    const pub = (await ann.client.post('/circles', { name: 'Pub apps', visibility: 'public' })).body.circle;
    const onPublic = await ann.client.put(`/circles/${pub.id}/app-invitations/${appId}`);
    expect(onPublic.status).toBe(409);
    expect(onPublic.body._tag).toBe('PlatformApiConflictError');
    const priv = (await ann.client.post('/circles', { name: 'Priv apps', visibility: 'private' })).body.circle;
    const bad = await ann.client.put(`/circles/${priv.id}/app-invitations/${encodeURIComponent('app with spaces')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toEqual(['appId']);
    expect((await bob.client.put(`/circles/${priv.id}/app-invitations/${appId}`)).status).toBe(404);
  });

  it('an app id that names no app answers PlatformAppNotFoundError and stores nothing', async () => {
    const priv = (await ann.client.post('/circles', { name: 'Ghost apps', visibility: 'private' })).body.circle;
    const res = await ann.client.put(`/circles/${priv.id}/app-invitations/app_doesnotexist`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppNotFoundError', path: ['appId'] });
    const rows = await stack.db.query('select 1 from circle_app_invitations where circle_id = $1', [priv.id]);
    expect(rows.rowCount).toBe(0);
  });
});
