/**
 * What members change is what the existing list endpoints show, page by page
 * (`GET /client/v1/notifications` and `GET /client/v1/memories`, over real HTTP): read state and
 * the unread count on every page of the inbox, marked through both read routes; memories edited
 * keep their place (lists stay in the order they were saved) and show the edit to every member;
 * deleted ones leave the pages, and a cursor issued before the deletion still pages on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../../helpers/stack.ts';
import { startInboxWorld, type InboxWorld, type Installed } from '../notifications/setup.ts';

let w: InboxWorld;
let notifier: Installed;
let scribe: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  notifier = await w.installApp(['notifications:write'], 'Reminders');
  scribe = await w.installApp(['memories:write'], 'Scribe');
});
afterAll(async () => {
  await w?.stop();
});

/** Every page of a list, following `nextCursor`. */
async function pages(client: ApiClient, path: string, limit: number): Promise<Array<{ items: any[]; unreadCount?: number }>> {
  const all: Array<{ items: any[]; unreadCount?: number }> = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await client.get(`${path}?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    all.push({ items: res.body.items, unreadCount: res.body.unreadCount });
    cursor = res.body.nextCursor;
  } while (cursor !== null);
  return all;
}

describe('the inbox shows read state on every page', () => {
  it('after reading one singly and the older ones up to a cursor', async () => {
    w.stack.clock.advance(61_000);
    const reader = await w.stack.addMember(w.ws.apiKey, { role: 'member', name: 'Rae Reader' });
    const api = await notifier.api();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await api.post('/notifications', { memberId: reader.member.id, text: `n${i}` })).body.id);
      w.stack.clock.advance(1_000);
    }
    expect((await reader.client.post(`/notifications/${ids[6]}/read`, {})).status).toBe(200);
    expect((await reader.client.post('/notifications/read', { upTo: ids[2] })).body).toEqual({ marked: 3, unreadCount: 3 });

    const listed = await pages(reader.client, '/notifications', 3);
    expect(listed.map((page) => page.items.length)).toEqual([3, 3, 1]);
    // The count is the member's, on every page.
    expect(listed.map((page) => page.unreadCount)).toEqual([3, 3, 3]);
    const read = Object.fromEntries(listed.flatMap((page) => page.items).map((n) => [n.text, n.readAt !== null]));
    expect(read).toEqual({ n6: true, n5: false, n4: false, n3: false, n2: true, n1: true, n0: true });
    // Nobody else's inbox changed.
    expect((await w.member.client.get('/notifications')).body.items.some((n: any) => ids.includes(n.id))).toBe(false);
  });
});

describe('memories show edits and deletions in the list', () => {
  it('an edit keeps the memory\'s place and shows to every member; a deletion leaves the pages and old cursors still work', async () => {
    w.stack.clock.advance(61_000);
    const api = await scribe.api();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push((await api.post('/memories', { title: `t${i}`, text: `m${i}` })).body.id);
      w.stack.clock.advance(1_000);
    }
    const first = await w.member.client.get('/memories?limit=2');
    const cursor = first.body.nextCursor as string;
    expect(first.body.items.map((m: any) => m.text)).toEqual(['m5', 'm4']);

    w.stack.clock.advance(5_000);
    const edited = await w.owner.client.patch(`/memories/${ids[1]}`, { text: 'm1, edited', title: null });
    expect(edited.status).toBe(200);
    expect((await w.owner.client.delete(`/memories/${ids[3]}`)).status).toBe(204);

    // The page after the old cursor: m3 is gone, the edit is in place.
    const after = await w.member.client.get(`/memories?limit=2&cursor=${cursor}`);
    expect(after.body.items.map((m: any) => m.text)).toEqual(['m2', 'm1, edited']);
    for (const client of [w.member.client, w.developer.client, w.owner.client]) {
      const ours = (await pages(client, '/memories', 2)).flatMap((page) => page.items).filter((m) => ids.includes(m.id));
      expect(ours.map((m) => m.text)).toEqual(['m5', 'm4', 'm2', 'm1, edited', 'm0']);
      expect(ours.find((m) => m.id === ids[1])).toMatchObject({
        title: null, app: { id: scribe.appId, name: 'Scribe' }, editedAt: new Date(w.stack.clock.now()).toISOString(), editedBy: w.owner.id,
      });
      expect(ours.filter((m) => m.editedAt !== null)).toHaveLength(1);
    }
  });
});
