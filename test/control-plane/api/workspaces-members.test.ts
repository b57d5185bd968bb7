/**
 * Workspaces, members, roles and API keys through the client API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack.stop());

describe('POST /client/v1/workspaces', () => {
  it('creates the workspace, its owner and the owner\'s API key', async () => {
    const res = await stack.client().request('POST', '/workspaces', {
      body: { name: 'Acme', owner: { name: 'Ada' } },
      headers: stack.config.workspaceCreation === 'open' ? {} : { authorization: `Bearer ${stack.config.operatorToken}` },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      workspace: { id: expect.stringMatching(/^ws_/), name: 'Acme' },
      owner: { id: expect.stringMatching(/^mem_/), name: 'Ada', role: 'owner' },
      apiKey: expect.stringMatching(/^platkey_/),
    });
    const me = await stack.client(res.body.apiKey).get('/me');
    expect(me.body).toEqual({ member: { ...res.body.owner }, workspace: { id: res.body.workspace.id, name: 'Acme' } });
  });

  it('stores only the hash of API keys', async () => {
    const { apiKey } = await stack.createWorkspace();
    const { rows } = await stack.db.query<{ key_hash: string }>('select key_hash from api_keys');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.key_hash).not.toContain(apiKey.slice(8));
    }
  });
});

describe('workspace creation guarded by the operator token', () => {
  let guarded: Stack;
  beforeAll(async () => {
    guarded = await startStack({ env: { OPERATOR_TOKEN: 'operator-token-for-tests' } });
  });
  afterAll(async () => guarded.stop());

  const body = { name: 'Guarded', owner: { name: 'Gil' } };

  it('refuses without a token (401 missing) and with a wrong one (401 invalid)', async () => {
    const missing = await guarded.client().post('/workspaces', body);
    expect(missing.status).toBe(401);
    expect(missing.body._tag).toBe('PlatformAppTokenMissingError');
    const wrong = await guarded.client().request('POST', '/workspaces', { body, headers: { authorization: 'Bearer not-the-operator-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('does not accept a member API key in place of the operator token', async () => {
    const { apiKey } = await guarded.client().request('POST', '/workspaces', { body, headers: { authorization: 'Bearer operator-token-for-tests' } }).then((r) => r.body);
    const res = await guarded.client(apiKey).post('/workspaces', body);
    expect(res.status).toBe(401);
  });

  it('creates with the operator token', async () => {
    const res = await guarded.client().request('POST', '/workspaces', { body, headers: { authorization: 'Bearer operator-token-for-tests' } });
    expect(res.status).toBe(201);
  });
});

describe('members and roles', () => {
  it('owners add admins and members; each new member gets a working key', async () => {
    const { apiKey, workspace } = await stack.createWorkspace();
    const owner = stack.client(apiKey);
    const admin = await owner.post('/members', { name: 'Adam Admin', role: 'admin' });
    expect(admin.status).toBe(201);
    expect(admin.body).toMatchObject({ member: { name: 'Adam Admin', role: 'admin', workspaceId: workspace.id }, apiKey: expect.stringMatching(/^platkey_/) });
    const viaAdmin = await stack.client(admin.body.apiKey).post('/members', { name: 'Mia', role: 'member' });
    expect(viaAdmin.status).toBe(201);
    expect((await stack.client(viaAdmin.body.apiKey).get('/me')).body.member).toMatchObject({ name: 'Mia', role: 'member' });
  });

  it('members cannot add members; admins cannot add owners; owners can', async () => {
    const { apiKey } = await stack.createWorkspace();
    const admin = await stack.addMember(apiKey, { role: 'admin' });
    const member = await stack.addMember(apiKey, { role: 'member' });
    const byMember = await member.client.post('/members', { name: 'X', role: 'member' });
    expect(byMember.status).toBe(403);
    expect(byMember.body._tag).toBe('PlatformApiForbiddenError');
    const ownerByAdmin = await admin.client.post('/members', { name: 'X', role: 'owner' });
    expect(ownerByAdmin.status).toBe(403);
    expect(ownerByAdmin.body.path).toEqual(['role']);
    expect((await stack.client(apiKey).post('/members', { name: 'Co-owner', role: 'owner' })).status).toBe(201);
  });

  it('lists and reads members of one\'s own workspace only, with pages', async () => {
    const a = await stack.createWorkspace();
    const b = await stack.createWorkspace();
    // Lists are oldest first; items created in the same millisecond have no defined order.
    for (let i = 0; i < 3; i++) {
      stack.clock.advance(1);
      await stack.addMember(a.apiKey, { name: `M${i}`, role: 'member' });
    }
    const first = await a.client.get('/members?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await a.client.get(`/members?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items).toHaveLength(2);
    expect(second.body.nextCursor).toBeNull();
    const names = [...first.body.items, ...second.body.items].map((m: { name: string }) => m.name);
    expect(names).toEqual(['Olive Owner', 'M0', 'M1', 'M2']);
    expect((await a.client.get(`/members/${a.owner.id}`)).body.member.id).toBe(a.owner.id);
    const foreign = await a.client.get(`/members/${b.owner.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body._tag).toBe('PlatformApiNotFoundError');
  });
});

describe('API keys', () => {
  it('creates (shown once), lists without secrets, and revokes one\'s own keys', async () => {
    const { client, apiKey } = await stack.createWorkspace();
    stack.clock.advance(1);
    const created = await client.post('/api-keys', { name: 'laptop' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key: { name: 'laptop', hint: created.body.apiKey.slice(-4), revokedAt: null }, apiKey: expect.stringMatching(/^platkey_/) });
    const second = stack.client(created.body.apiKey);
    expect((await second.get('/me')).status).toBe(200);

    const list = await client.get('/api-keys');
    expect(list.body.items.map((k: { name: string }) => k.name)).toEqual(['first key', 'laptop']);
    expect(JSON.stringify(list.body)).not.toContain(created.body.apiKey);
    expect(JSON.stringify(list.body)).not.toContain(apiKey);

    expect((await client.delete(`/api-keys/${created.body.key.id}`)).status).toBe(204);
    const after = await second.get('/me');
    expect(after.status).toBe(401);
    expect(after.body._tag).toBe('PlatformAppTokenInvalidError');
    const revoked = (await client.get('/api-keys')).body.items.find((k: { id: string }) => k.id === created.body.key.id);
    expect(revoked.revokedAt).toBe(new Date(stack.clock.now()).toISOString());
    expect((await client.delete(`/api-keys/${created.body.key.id}`)).status).toBe(404);
  });

  it('cannot revoke another member\'s key', async () => {
    const { apiKey } = await stack.createWorkspace();
    const other = await stack.addMember(apiKey, { role: 'member' });
    const otherKeys = await other.client.get('/api-keys');
    const res = await stack.client(apiKey).delete(`/api-keys/${otherKeys.body.items[0].id}`);
    expect(res.status).toBe(404);
    expect((await other.client.get('/me')).status).toBe(200);
  });

  it('records when a key was last used, at most once a minute', async () => {
    const { client } = await stack.createWorkspace();
    await client.get('/me');
    const first = (await client.get('/api-keys')).body.items[0].lastUsedAt;
    expect(first).toBe(new Date(stack.clock.now()).toISOString());
    stack.clock.advance(30_000);
    await client.get('/me');
    expect((await client.get('/api-keys')).body.items[0].lastUsedAt).toBe(first);
    stack.clock.advance(30_000);
    await client.get('/me');
    expect((await client.get('/api-keys')).body.items[0].lastUsedAt).toBe(new Date(stack.clock.now()).toISOString());
  });
});
