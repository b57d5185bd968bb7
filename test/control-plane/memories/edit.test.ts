/**
 * Editing and deleting memories over real HTTP (`PATCH` and `DELETE /client/v1/memories/{id}`): a
 * memory the whole workspace sees is edited and deleted by owners and admins (403 for members); one
 * shown to a member alone (a development install's) by that member, and it answers 404 to everyone
 * else, admins included, and to other workspaces. The field rules at their boundaries, strict
 * bodies, and what the list (`GET /client/v1/memories`) shows afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../helpers/stack.ts';
import { startInboxWorld, type InboxWorld, type Installed } from '../notifications/setup.ts';

let w: InboxWorld;
let app: Installed;
let dev: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  app = await w.installApp(['memories:write'], 'Scribe');
  dev = await w.devApp(['memories:write']);
});
afterAll(async () => {
  await w?.stop();
});

// One grapheme of two code points (thumbs up, skin tone).
const G = '\u{1F44D}\u{1F3FD}';

async function saved(on: Installed = app, body: Record<string, unknown> = { title: 'Release day', text: 'We ship on Thursdays.' }): Promise<string> {
  w.stack.clock.advance(61_000);
  const res = await (await on.api()).post('/memories', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const listed = async (client: ApiClient, id: string) => {
  const res = await client.get('/memories?limit=200');
  expect(res.status).toBe(200);
  return (res.body.items as any[]).find((m) => m.id === id);
};

describe('editing a memory the whole workspace sees', () => {
  it('an owner edits text and title: the app stays credited, editedAt and editedBy are set, every member lists the edit', async () => {
    const id = await saved();
    w.stack.clock.advance(3_000);
    const at = new Date(w.stack.clock.now()).toISOString();
    const res = await w.owner.client.patch(`/memories/${id}`, { text: '  We ship on Wednesdays.  ', title: 'Release day (new)' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.memory).toEqual({
      id, title: 'Release day (new)', text: 'We ship on Wednesdays.', app: { id: app.appId, name: 'Scribe' },
      createdAt: expect.any(String), editedAt: at, editedBy: w.owner.id,
    });
    expect(res.body.memory.createdAt).not.toBe(at);
    for (const client of [w.member.client, w.developer.client]) expect(await listed(client, id)).toEqual(res.body.memory);
  });

  it('an admin may edit too; only the fields sent change; null or an empty title removes the title', async () => {
    const admin = await w.stack.addMember(w.ws.apiKey, { role: 'admin' });
    const id = await saved();
    const textOnly = await admin.client.patch(`/memories/${id}`, { text: 'Only the text' });
    expect(textOnly.body.memory).toMatchObject({ title: 'Release day', text: 'Only the text', editedBy: admin.member.id });
    const titleOnly = await admin.client.patch(`/memories/${id}`, { title: 'Only the title' });
    expect(titleOnly.body.memory).toMatchObject({ title: 'Only the title', text: 'Only the text' });
    expect((await admin.client.patch(`/memories/${id}`, { title: null })).body.memory.title).toBeNull();
    await admin.client.patch(`/memories/${id}`, { title: 'Back' });
    expect((await admin.client.patch(`/memories/${id}`, { title: '   ' })).body.memory.title).toBeNull();
    expect((await listed(w.member.client, id)).title).toBeNull();
  });

  it('a plain member may not edit or delete it (403), and nothing changes', async () => {
    const id = await saved();
    const edit = await w.member.client.patch(`/memories/${id}`, { text: 'Sneaky' });
    expect(edit.status).toBe(403);
    expect(edit.body._tag).toBe('PlatformApiForbiddenError');
    const del = await w.member.client.delete(`/memories/${id}`);
    expect(del.status).toBe(403);
    expect(del.body._tag).toBe('PlatformApiForbiddenError');
    expect(await listed(w.member.client, id)).toMatchObject({ text: 'We ship on Thursdays.', editedAt: null, editedBy: null });
  });
});

describe('a memory shown to one member alone (a development install\'s)', () => {
  it('its member edits and deletes it', async () => {
    const id = await saved(dev, { text: 'Draft note' });
    const res = await w.developer.client.patch(`/memories/${id}`, { text: 'Better draft' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.memory).toMatchObject({ id, text: 'Better draft', editedBy: w.developer.id, app: { id: dev.appId } });
    expect(await listed(w.developer.client, id)).toEqual(res.body.memory);
    const del = await w.developer.client.delete(`/memories/${id}`);
    expect(del.status).toBe(204);
    expect(await listed(w.developer.client, id)).toBeUndefined();
  });

  it('answers 404 to everyone else: the workspace owner, a member, another workspace', async () => {
    const id = await saved(dev, { text: 'Mine alone' });
    for (const client of [w.owner.client, w.member.client, w.foreign.client]) {
      for (const res of [await client.patch(`/memories/${id}`, { text: 'x' }), await client.delete(`/memories/${id}`)]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: ['memoryId'] });
      }
    }
    expect(await listed(w.developer.client, id)).toMatchObject({ text: 'Mine alone', editedAt: null });
  });
});

describe('deleting', () => {
  it('an owner deletes: 204, gone from every list; again: 404', async () => {
    const id = await saved();
    const res = await w.owner.client.delete(`/memories/${id}`);
    expect(res.status).toBe(204);
    expect(await listed(w.member.client, id)).toBeUndefined();
    const again = await w.owner.client.delete(`/memories/${id}`);
    expect(again.status).toBe(404);
    expect(again.body._tag).toBe('PlatformApiNotFoundError');
    expect((await w.owner.client.patch(`/memories/${id}`, { text: 'x' })).status).toBe(404);
  });

  it('a memory of another workspace answers 404', async () => {
    const id = await saved();
    expect((await w.foreign.client.delete(`/memories/${id}`)).status).toBe(404);
    expect(await listed(w.owner.client, id)).toBeDefined();
  });

  it('needs a member API key', async () => {
    const id = await saved();
    expect((await w.stack.client().delete(`/memories/${id}`)).status).toBe(401);
    expect((await w.stack.client(await app.token()).patch(`/memories/${id}`, { text: 'x' })).body._tag).toBe('PlatformAppTokenInvalidError');
  });
});

describe('field rules', () => {
  it.each([
    ['text of 4,000 characters as people see them', { text: G.repeat(4_000) }],
    ['a title of 200 characters', { title: G.repeat(200) }],
    ['text of one character', { text: 'x' }],
  ])('accepts %s', async (_name, body) => {
    const id = await saved();
    const res = await w.owner.client.patch(`/memories/${id}`, body);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  });

  it('a body over the byte cap ((4,000 + 200) × 16 bytes + 1 KB) is 413 and not read', async () => {
    const id = await saved();
    const res = await w.owner.client.patch(`/memories/${id}`, { text: 'x'.repeat(4_200 * 16 + 1_024) });
    expect(res.status).toBe(413);
    expect(res.body._tag).toBe('PlatformApiPayloadTooLargeError');
    expect(await listed(w.owner.client, id)).toMatchObject({ editedAt: null });
  });

  it.each([
    ['text of 4,001 characters', { text: G.repeat(4_001) }, ['text']],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, ['title']],
    ['text that is only spaces', { text: '   ' }, ['text']],
    ['empty text', { text: '' }, ['text']],
    ['text that is not a string', { text: 42 }, ['text']],
    ['a null text', { text: null }, ['text']],
    ['an empty body', {}, []],
    ['an unknown field', { text: 'x', pinned: true }, ['pinned']],
  ])('refuses %s with a tagged 400 and changes nothing', async (_name, body, path) => {
    const id = await saved();
    const res = await w.owner.client.patch(`/memories/${id}`, body);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    expect(res.body.issues.map((i: any) => i.path)).toContainEqual(path);
    expect(await listed(w.owner.client, id)).toMatchObject({ text: 'We ship on Thursdays.', title: 'Release day', editedAt: null });
  });
});
