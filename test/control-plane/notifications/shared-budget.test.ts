/**
 * One budget of 60 notifications a minute per app, shared by `POST /v0/notifications` and `notify`
 * of action results (spec, Limits: "Notifications via `notify` and the notifications endpoint
 * together"), both ways round, over the blocks fixture app: a member clicks its "Ping" actions and
 * the app calls the endpoint with its install token. Time moves only on the injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { click, startBoardWorld, type BoardWorld } from '../blocks/setup.ts';

let w: BoardWorld;
let blockId: string;
beforeAll(async () => {
  w = await startBoardWorld();
  blockId = (await w.insert()).id;
});
afterAll(async () => {
  await w?.stop();
});

/** What the member's inbox holds now (the client API, newest first). */
async function inbox(): Promise<Array<{ text: string; blockId: string | null }>> {
  const res = await w.member.client.get('/notifications?limit=200');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}

const endpoint = async (api: Awaited<ReturnType<BoardWorld['app']>>, text: string) => api.post('/notifications', { memberId: w.member.id, text });

describe('the endpoint and notify share 60 a minute per app', () => {
  it('notify spends first: the endpoint gets what is left, then 429; a minute later both send again', async () => {
    w.stack.clock.advance(120_000);
    await w.stack.db.query('delete from notifications');
    for (let i = 0; i < 2; i++) expect((await click(w.member.client, blockId, 'Ping 20')).outcome).toBe('applied');
    const api = await w.app();
    for (let i = 0; i < 20; i++) expect((await endpoint(api, `api ${i}`)).status, `request ${i}`).toBe(201);
    const over = await endpoint(api, 'over');
    expect(over.status).toBe(429);
    expect(over.body._tag).toBe('PlatformApiRateLimitExceededError');
    // notify over the shared limit is dropped; the action itself still succeeds.
    expect((await click(w.member.client, blockId, 'Ping')).outcome).toBe('applied');
    const full = await inbox();
    expect(full.length).toBe(60);
    expect(full.filter((n) => n.blockId === blockId).length).toBe(40);

    w.stack.clock.advance(61_000);
    expect((await endpoint(api, 'next minute')).status).toBe(201);
    expect((await click(w.member.client, blockId, 'Ping')).outcome).toBe('applied');
    expect((await inbox()).slice(0, 2).map((n) => n.text)).toEqual(['Ping 1', 'next minute']);
  });

  it('the endpoint spends first: notify of an action result then sends nothing until the window moves', async () => {
    w.stack.clock.advance(120_000);
    await w.stack.db.query('delete from notifications');
    const api = await w.app();
    for (let i = 0; i < 60; i++) expect((await endpoint(api, `api ${i}`)).status, `request ${i}`).toBe(201);
    expect((await click(w.member.client, blockId, 'Ping 20')).outcome).toBe('applied');
    expect((await inbox()).filter((n) => n.blockId !== null)).toEqual([]);
    w.stack.clock.advance(61_000);
    expect((await click(w.member.client, blockId, 'Ping 20')).outcome).toBe('applied');
    expect((await inbox()).filter((n) => n.blockId === blockId).length).toBe(20);
  });
});
