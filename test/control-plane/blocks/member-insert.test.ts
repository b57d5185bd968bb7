/**
 * A member inserts a block through the interface (`POST /client/v1/blocks`) over real HTTP: the
 * same path as the app's `POST /v0/blocks` (block.insert with the spec's target rules, props
 * checked, block.created), with the member as actor and author; only where they can post, only in
 * circles the app reaches, only for block types marked `insertable` in the running version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBoardWorld, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

const lastInsert = () => w.board.of('block.insert').at(-1)!;
const created = async (blockId: string) =>
  (await w.stack.db.query<{ payload: any; actor: any }>('select payload, actor from outbox_events where install_id = $1 and type = $2', [w.installId, 'block.created']))
    .rows.filter((r) => r.payload.block.id === blockId);

describe('a member inserts a block', () => {
  it('into a conversation by appId: block.insert with the member as actor, block.created, a message of theirs carrying the block', async () => {
    const res = await w.member.client.post('/blocks', { appId: w.appId, type: 'board', props: { title: 'Mine' }, target: { conversationId: w.conversationId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.block).toMatchObject({ type: 'board', app: { id: w.appId }, circleId: w.circleId, conversationId: w.conversationId, revision: 1, summary: 'Mine: 0' });
    expect(res.body.block.actions).toBeUndefined();
    expect(lastInsert().data).toEqual({ type: 'board', props: { title: 'Mine' }, target: { circleId: w.circleId, conversationId: w.conversationId } });
    expect(lastInsert().actor).toEqual({ memberId: w.member.id, name: 'Mia Member' });

    const events = await created(res.body.block.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.actor).toEqual({ memberId: w.member.id, name: 'Mia Member' });
    expect(events[0]!.payload.block).toMatchObject({ id: res.body.block.id, version: 1, circleId: w.circleId, conversationId: w.conversationId });

    const message = (await w.ws.client.get(`/messages/${res.body.block.messageId}`)).body.message;
    expect(message).toMatchObject({ blockId: res.body.block.id, author: { kind: 'member', memberId: w.member.id, name: 'Mia Member' } });
    // The app reads it like any of its blocks; the member, as its message's author, may delete it.
    expect((await (await w.app()).get(`/blocks/${res.body.block.id}`)).body).toMatchObject({ id: res.body.block.id, state: { count: 0 } });
    expect((await w.member.client.delete(`/messages/${message.id}`)).status).toBe(204);
    expect((await (await w.app()).get(`/blocks/${res.body.block.id}`)).status).toBe(404);
  });

  it('as a reply or into a circle\'s chat by installId, with the spec\'s target rules', async () => {
    const post = await w.member.client.post(`/conversations/${w.conversationId}/messages`, { markdown: 'Plan?' });
    const reply = await w.member.client.post('/blocks', { installId: w.installId, type: 'board', props: { title: 'R' }, target: { replyTo: post.body.message.id } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(lastInsert().data.target).toEqual({ circleId: w.circleId, conversationId: w.conversationId });
    const replies = await w.member.client.get(`/messages/${post.body.message.id}/replies`);
    expect(replies.body.items.map((m: any) => m.blockId)).toContain(reply.body.block.id);

    const chat = await w.member.client.post('/blocks', { installId: w.installId, type: 'board', props: { title: 'C' }, target: { circleId: w.circleId } });
    expect(chat.status, JSON.stringify(chat.body)).toBe(201);
    expect(lastInsert().data.target).toEqual({ circleId: w.circleId });
    expect(chat.body.block.conversationId).toBeNull();
  });

  it('is refused where the member cannot post, where the app does not reach, and for bad requests; nothing is delivered', async () => {
    const before = w.board.of('block.insert').length;
    const body = (target: Record<string, string>, extra: Record<string, unknown> = {}) => ({ appId: w.appId, type: 'board', props: { title: 'x' }, target, ...extra });

    // A private circle the member is not in: as if absent.
    const hidden = await w.member.client.post('/blocks', body({ circleId: w.privateCircleId }));
    expect(hidden.status).toBe(404);
    // A private circle with chat the member is in, but the app was not invited to.
    const club = await w.member.client.post('/circles', { name: 'Club', visibility: 'private', chat: true });
    expect(club.status).toBe(201);
    const unreached = await w.member.client.post('/blocks', body({ circleId: club.body.circle.id }));
    expect(unreached.status).toBe(403);
    expect(unreached.body._tag).toBe('PlatformApiForbiddenError');
    // A circle without chat.
    const quiet = await w.member.client.post('/circles', { name: 'Quiet', visibility: 'public' });
    expect((await w.member.client.post('/blocks', body({ circleId: quiet.body.circle.id }))).status).toBe(409);
    // No such app install; an unknown type; props outside the schema; two targets; both appId and installId.
    expect((await w.member.client.post('/blocks', body({ circleId: w.circleId }, { appId: 'app_nope' }))).status).toBe(404);
    const unknown = await w.member.client.post('/blocks', body({ circleId: w.circleId }, { type: 'nope' }));
    expect(unknown.status).toBe(422);
    expect(unknown.body._tag).toBe('PlatformAppBlockTypeUnknownError');
    const props = await w.member.client.post('/blocks', body({ circleId: w.circleId }, { props: { title: '' } }));
    expect(props.status).toBe(400);
    expect((await w.member.client.post('/blocks', body({ circleId: w.circleId, conversationId: w.conversationId }))).status).toBe(400);
    expect((await w.member.client.post('/blocks', body({ circleId: w.circleId }, { installId: w.installId }))).status).toBe(400);
    expect(w.board.of('block.insert')).toHaveLength(before);
  });

  it('only block types the running version marks insertable', async () => {
    const manifest = structuredClone(w.board.app.manifest) as any;
    manifest.blocks[0].insertable = false;
    const synced = await w.stack.v0(w.ws.apiKey).put(`/apps/${w.appId}/manifest`, { manifest, target: 'production' });
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    expect((await w.ws.client.get(`/installs/${w.installId}`)).body.install.version).toBe(synced.body.version);
    const before = w.board.of('block.insert').length;
    const refused = await w.member.client.post('/blocks', { appId: w.appId, type: 'board', props: { title: 'x' }, target: { circleId: w.circleId } });
    expect(refused.status).toBe(403);
    expect(refused.body.path).toEqual(['type']);
    expect(w.board.of('block.insert')).toHaveLength(before);
    // The app itself still inserts it through its API.
    expect((await (await w.app()).post('/blocks', { type: 'board', props: { title: 'App' }, circleId: w.circleId })).status).toBe(201);
  });
});
