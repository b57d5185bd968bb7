/**
 * Marking inbox notifications read over real HTTP: `POST /client/v1/notifications/{id}/read` (one;
 * a second call keeps the first time), `POST /client/v1/notifications/read` with `{ upTo }` (that
 * one and every older one, never a newer one, also within one instant), the inbox's `readAt` and
 * `unreadCount`, another member's notification answering as absent, and bad bodies as tagged 400s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../helpers/stack.ts';
import { startInboxWorld, type InboxWorld, type Installed } from './setup.ts';

let w: InboxWorld;
let app: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  app = await w.installApp(['notifications:write'], 'Reminders');
});
afterAll(async () => {
  await w?.stop();
});

/** A fresh reader with `n` notifications, oldest first; every other pair shares an instant. */
async function readerWith(n: number): Promise<{ client: ApiClient; ids: string[] }> {
  w.stack.clock.advance(61_000);
  const reader = await w.stack.addMember(w.ws.apiKey, { role: 'member', name: 'Rae Reader' });
  const api = await app.api();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post('/notifications', { memberId: reader.member.id, text: `n${i}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.push(res.body.id);
    if (i % 2 === 1) w.stack.clock.advance(1_000);
  }
  return { client: reader.client, ids };
}

const inbox = async (client: ApiClient) => {
  const res = await client.get('/notifications?limit=200');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: any[]; unreadCount: number };
};
const readIds = async (client: ApiClient) => (await inbox(client)).items.filter((n) => n.readAt !== null).map((n) => n.id).sort();

describe('marking one notification read', () => {
  it('sets readAt, lowers the unread count, and a second call keeps the first time', async () => {
    const { client, ids } = await readerWith(3);
    expect((await inbox(client)).unreadCount).toBe(3);
    const at = new Date(w.stack.clock.now()).toISOString();
    const res = await client.post(`/notifications/${ids[1]}/read`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      notification: expect.objectContaining({ id: ids[1], text: 'n1', readAt: at, app: { id: app.appId, name: 'Reminders' } }),
      unreadCount: 2,
    });
    w.stack.clock.advance(5_000);
    const again = await client.post(`/notifications/${ids[1]}/read`, {});
    expect(again.body.notification.readAt).toBe(at);
    expect(again.body.unreadCount).toBe(2);
    const listed = await inbox(client);
    expect(listed.unreadCount).toBe(2);
    expect(listed.items.find((n) => n.id === ids[1]).readAt).toBe(at);
    expect(listed.items.filter((n) => n.readAt === null).map((n) => n.text).sort()).toEqual(['n0', 'n2']);
  });

  it('another member\'s notification, another workspace\'s member, or no such id: 404 and nothing changes', async () => {
    const { client, ids } = await readerWith(1);
    for (const other of [w.member.client, w.foreign.client]) {
      const res = await other.post(`/notifications/${ids[0]}/read`, {});
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: ['notificationId'] });
    }
    expect((await client.post('/notifications/ntf_nope/read', {})).status).toBe(404);
    expect((await inbox(client)).unreadCount).toBe(1);
  });

  it('needs a member API key', async () => {
    const { ids } = await readerWith(1);
    expect((await w.stack.client().post(`/notifications/${ids[0]}/read`, {})).status).toBe(401);
    expect((await w.stack.client(await app.token()).post(`/notifications/${ids[0]}/read`, {})).body._tag).toBe('PlatformAppTokenInvalidError');
  });
});

describe('marking read up to a notification', () => {
  it('marks it and every older one, never a newer one (also one sharing its instant)', async () => {
    const { client, ids } = await readerWith(6);
    // n2 and n3 share an instant; upTo n2 leaves n3 (newer by arrival) unread.
    const res = await client.post('/notifications/read', { upTo: ids[2] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ marked: 3, unreadCount: 3 });
    expect(await readIds(client)).toEqual([ids[0], ids[1], ids[2]].sort());

    // Already read ones are not counted again; one read singly keeps its time.
    await client.post(`/notifications/${ids[4]}/read`, {});
    const readAt4 = (await inbox(client)).items.find((n) => n.id === ids[4]).readAt;
    w.stack.clock.advance(9_000);
    const rest = await client.post('/notifications/read', { upTo: ids[5] });
    expect(rest.body).toEqual({ marked: 2, unreadCount: 0 });
    const listed = await inbox(client);
    expect(listed.items.every((n) => n.readAt !== null)).toBe(true);
    expect(listed.items.find((n) => n.id === ids[4]).readAt).toBe(readAt4);
    expect(listed.items.find((n) => n.id === ids[5]).readAt).toBe(new Date(w.stack.clock.now()).toISOString());
  });

  it('a notification that arrives after the one seen stays unread', async () => {
    const { client, ids } = await readerWith(2);
    const seen = (await inbox(client)).items[0].id;
    expect(seen).toBe(ids[1]);
    const memberId = (await client.get('/me')).body.member.id;
    const late = await (await app.api()).post('/notifications', { memberId, text: 'late' });
    expect(late.status).toBe(201);
    expect((await client.post('/notifications/read', { upTo: seen })).body).toEqual({ marked: 2, unreadCount: 1 });
    expect((await inbox(client)).items.find((n) => n.id === late.body.id).readAt).toBeNull();
  });

  it('touches only the caller\'s own notifications', async () => {
    const a = await readerWith(2);
    const b = await readerWith(2);
    expect((await b.client.post('/notifications/read', { upTo: b.ids[1] })).body).toEqual({ marked: 2, unreadCount: 0 });
    expect((await inbox(a.client)).unreadCount).toBe(2);
    const foreign = await b.client.post('/notifications/read', { upTo: a.ids[1] });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: ['upTo'] });
    expect((await inbox(a.client)).unreadCount).toBe(2);
  });

  it.each([
    ['no body field', {}, ['upTo']],
    ['an empty id', { upTo: '' }, ['upTo']],
    ['an id over 64 characters', { upTo: 'n'.repeat(65) }, ['upTo']],
    ['a number', { upTo: 7 }, ['upTo']],
    ['an unknown field', { upTo: 'ntf_x', all: true }, ['all']],
  ])('refuses %s with a tagged 400', async (_name, body, path) => {
    const { client } = await readerWith(1);
    const res = await client.post('/notifications/read', body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    expect(res.body.issues.map((i: any) => i.path)).toContainEqual(path);
    expect((await inbox(client)).unreadCount).toBe(1);
  });

  it('a body over 16 KB is 413 and marks nothing', async () => {
    const { client, ids } = await readerWith(1);
    const res = await client.post('/notifications/read', { upTo: ids[0], pad: 'x'.repeat(16 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body._tag).toBe('PlatformApiPayloadTooLargeError');
    expect((await inbox(client)).unreadCount).toBe(1);
  });

  it('an id of 64 characters is well-formed (404 when it names nothing)', async () => {
    const { client } = await readerWith(1);
    const res = await client.post('/notifications/read', { upTo: 'n'.repeat(64) });
    expect(res.status).toBe(404);
    expect(res.body._tag).toBe('PlatformApiNotFoundError');
  });
});
