/**
 * Removing a block over real HTTP: deleting its message (`DELETE /client/v1/messages/{id}`) marks
 * the block removed and records `block.removed` in the same transaction; from then on the app's
 * API and the member's side answer as if the block were absent. Also: who may delete, and the
 * messages view showing what a block message is (`blockId`, the app as author).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

const eventsOf = async (type: string) =>
  (await w.stack.db.query<{ payload: any; actor: any }>('select payload, actor from outbox_events where install_id = $1 and type = $2 order by seq', [w.installId, type])).rows;

const messageOf = async (blockId: string): Promise<any> => {
  const { rows } = await w.stack.db.query<{ id: string }>('select id from messages where block_id = $1', [blockId]);
  return rows[0];
};

describe('the messages view of a block message', () => {
  it('carries blockId and the app as author; other messages keep their member author and a null blockId', async () => {
    const block = await w.insert({ title: 'Shown' });
    const post = await w.ws.client.post(`/conversations/${w.conversationId}/messages`, { markdown: 'plain' });
    const list = await w.member.client.get(`/conversations/${w.conversationId}/messages`);
    expect(list.status).toBe(200);
    const carrying = list.body.items.find((m: any) => m.blockId === block.id);
    expect(carrying.author).toEqual({ kind: 'app', memberId: null, appId: w.appId, name: 'Board' });
    const plain = list.body.items.find((m: any) => m.id === post.body.message.id);
    expect(plain).toMatchObject({ blockId: null, author: { kind: 'member', memberId: w.ws.owner.id } });
    expect((await w.member.client.get(`/messages/${carrying.id}`)).body.message.blockId).toBe(block.id);
  });
});

describe('deleting a block\'s message', () => {
  it('is refused to a member who is not its author, and allowed to a workspace owner', async () => {
    const block = await w.insert({ title: 'Doomed' });
    const message = await messageOf(block.id);
    const refused = await w.member.client.delete(`/messages/${message.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body._tag).toBe('PlatformApiForbiddenError');
    expect(await view(w.member.client, block.id)).toMatchObject({ id: block.id });

    const deleted = await w.ws.client.delete(`/messages/${message.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expect((await w.ws.client.get(`/messages/${message.id}`)).status).toBe(404);

    // block.removed, for the install that created it, with the block's next version and the deleting member as actor.
    const removed = (await eventsOf('block.removed')).filter((e) => e.payload.block.id === block.id);
    expect(removed).toHaveLength(1);
    expect(removed[0]!.payload.block).toMatchObject({ id: block.id, type: 'board', version: block.version + 1, circleId: w.circleId, conversationId: w.conversationId });
    expect(removed[0]!.actor).toEqual({ memberId: w.ws.owner.id, name: 'Olive Owner' });

    // Absent everywhere from now on, and never rendered again.
    const api = await w.app();
    const read = await api.get(`/blocks/${block.id}`);
    expect(read.status).toBe(404);
    expect(read.body._tag).toBe('PlatformAppBlockNotFoundError');
    expect((await api.patch(`/blocks/${block.id}`, { state: { count: 5 } })).status).toBe(404);
    expect((await api.post(`/blocks/${block.id}/revalidate`, {})).status).toBe(404);
    const query = await api.post('/blocks/query', { type: 'board', limit: 100 });
    expect(query.body.items.map((b: any) => b.id)).not.toContain(block.id);
    const bulk = await api.patch('/blocks', { type: 'board', stateMatch: { count: 0 }, state: { note: 'bulk' } });
    expect(bulk.status).toBe(200);
    expect((await w.stack.db.query<{ state: any; removed_at: Date | null }>('select state, removed_at from blocks where id = $1', [block.id])).rows[0])
      .toMatchObject({ state: { count: 0, note: '' }, removed_at: expect.any(Date) });
    expect((await w.member.client.get(`/blocks/${block.id}`)).status).toBe(404);
    w.stack.clock.advance(3_600_000);
    expect((await w.member.client.get(`/blocks/${block.id}`)).status).toBe(404);
    await w.settled();
    expect(w.board.of('block.render').filter((d) => d.data.block.id === block.id)).toHaveLength(0);
  });

  it('deleting a thread\'s root takes its replies, and the blocks they carried, with it', async () => {
    const root = await w.member.client.post(`/conversations/${w.conversationId}/messages`, { markdown: 'Vote below' });
    expect(root.status).toBe(201);
    const reply = await w.ws.client.post(`/messages/${root.body.message.id}/replies`, { markdown: 'ok' });
    const block = await w.insert({ title: 'In thread' }, { replyTo: root.body.message.id });
    const deleted = await w.member.client.delete(`/messages/${root.body.message.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expect((await w.ws.client.get(`/messages/${reply.body.message.id}`)).status).toBe(404);
    expect((await (await w.app()).get(`/blocks/${block.id}`)).status).toBe(404);
    const removed = (await eventsOf('block.removed')).filter((e) => e.payload.block.id === block.id);
    expect(removed.map((e) => e.actor.memberId)).toEqual([w.member.id]);
  });

  it('a message without a block records no block.removed; a second delete answers 404', async () => {
    const count = (await eventsOf('block.removed')).length;
    const post = await w.member.client.post(`/conversations/${w.conversationId}/messages`, { markdown: 'bye' });
    expect((await w.member.client.delete(`/messages/${post.body.message.id}`)).status).toBe(204);
    expect((await w.member.client.delete(`/messages/${post.body.message.id}`)).status).toBe(404);
    expect(await eventsOf('block.removed')).toHaveLength(count);
  });

  it('is in the OpenAPI document of the client API', async () => {
    const res = await fetch(`${w.stack.url}/client/v1/openapi.json`);
    const doc: any = await res.json();
    expect(doc.paths['/messages/{messageId}'].delete.operationId).toBe('deleteMessage');
    expect(doc.paths['/blocks'].post.operationId).toBe('insertBlockAsMember');
  });
});
