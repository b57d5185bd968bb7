/**
 * The blocks API for apps (`/v0/blocks…`) over real HTTP: insert with its targets, reach and
 * `block.insert` delivery, read and query, update and replace with `expectedVersion`, revalidate,
 * and the bulk update by state with its skips and errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refOf, startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

const lastInsert = () => w.board.of('block.insert').at(-1)!;

describe('insert', () => {
  it('into a conversation: block.insert carries circle and conversation; the block, its message and block.created commit', async () => {
    const res = await (await w.app()).post('/blocks', { type: 'board', props: { title: 'Plan' }, conversationId: w.conversationId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      type: 'board', props: { title: 'Plan' }, state: { count: 0, note: '' }, revision: 1, version: 1, final: false,
      circleId: w.circleId, conversationId: w.conversationId,
    });
    expect(res.body.id).toMatch(/^blk_/);
    expect(lastInsert().data).toEqual({ type: 'board', props: { title: 'Plan' }, target: { circleId: w.circleId, conversationId: w.conversationId } });
    expect(lastInsert().actor).toBeUndefined();
    const messages = await w.ws.client.get(`/conversations/${w.conversationId}/messages`);
    const message = messages.body.items.find((m: any) => m.content?.content?.[0]?.content?.[0]?.text === 'Plan: 0');
    expect(message).toBeDefined();
    const { rows } = await w.stack.db.query<{ type: string; payload: any }>('select type, payload from outbox_events where install_id = $1 and type = $2', [w.installId, 'block.created']);
    expect(rows.map((r) => r.payload.block.id)).toContain(res.body.id);
    expect(rows.find((r) => r.payload.block.id === res.body.id)!.payload.block).toMatchObject({ circleId: w.circleId, conversationId: w.conversationId, version: 1, revision: 1 });
  });

  it('a target deleted while the app answers block.insert is absent: 404, nothing written (not a 500)', async () => {
    const made = await w.ws.client.post(`/circles/${w.circleId}/conversations`, { title: 'Short-lived' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const conversationId = made.body.conversation.id as string;
    const blocksBefore = (await w.stack.db.query<{ n: number }>('select count(*)::int as n from blocks')).rows[0]!.n;
    w.board.beforeAnswer = async (delivery) => {
      if (delivery.type === 'block.insert') await w.stack.db.query('delete from conversations where id = $1', [conversationId]);
    };
    try {
      const res = await (await w.app()).post('/blocks', { type: 'board', props: { title: 'Gone' }, conversationId });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toMatchObject({ _tag: 'PlatformApiConversationNotFoundError', path: ['conversationId'] });
    } finally {
      w.board.beforeAnswer = null;
    }
    expect((await w.stack.db.query<{ n: number }>('select count(*)::int as n from blocks')).rows[0]!.n).toBe(blocksBefore);
  });

  it('as a reply: the delivery carries the reply\'s circle and conversation, never replyTo', async () => {
    const post = await w.ws.client.post(`/conversations/${w.conversationId}/messages`, { markdown: 'Who brings snacks?' });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const res = await (await w.app()).post('/blocks', { type: 'board', props: { title: 'Reply' }, replyTo: post.body.message.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(lastInsert().data.target).toEqual({ circleId: w.circleId, conversationId: w.conversationId });
    const replies = await w.ws.client.get(`/messages/${post.body.message.id}/replies`);
    expect(replies.body.items.some((m: any) => m.replyTo === post.body.message.id)).toBe(true);
  });

  it('into a circle\'s chat: only circleId; a circle without chat is refused', async () => {
    const res = await (await w.app()).post('/blocks', { type: 'board', props: { title: 'Chat' }, circleId: w.circleId });
    expect(res.status).toBe(201);
    expect(res.body.conversationId).toBeNull();
    expect(lastInsert().data.target).toEqual({ circleId: w.circleId });
    const quiet = await w.ws.client.post('/circles', { name: 'Quiet', visibility: 'public' });
    const refused = await (await w.app()).post('/blocks', { type: 'board', props: { title: 'Chat' }, circleId: quiet.body.circle.id });
    expect(refused.status).toBe(409);
  });

  it('targets out of reach answer as if absent, each with its own tag', async () => {
    const api = await w.app();
    const circle = await api.post('/blocks', { type: 'board', props: { title: 'x' }, circleId: w.privateCircleId });
    expect(circle.status).toBe(404);
    expect(circle.body).toMatchObject({ _tag: 'PlatformAppCircleNotFoundError', circleIds: [w.privateCircleId] });
    const hidden = await w.ws.client.post(`/circles/${w.privateCircleId}/conversations`, { title: 'Private plans' });
    const conv = await api.post('/blocks', { type: 'board', props: { title: 'x' }, conversationId: hidden.body.conversation.id });
    expect(conv.status).toBe(404);
    expect(conv.body._tag).toBe('PlatformApiConversationNotFoundError');
    const reply = await api.post('/blocks', { type: 'board', props: { title: 'x' }, replyTo: 'msg_nope' });
    expect(reply.body._tag).toBe('PlatformApiReplyNotFoundError');
  });

  it('checks the request: one target, props against the props schema (≤ 16 KB), a known type, blocks:write', async () => {
    const api = await w.app();
    expect((await api.post('/blocks', { type: 'board', props: { title: 'x' } })).status).toBe(400);
    expect((await api.post('/blocks', { type: 'board', props: { title: 'x' }, circleId: w.circleId, conversationId: w.conversationId })).status).toBe(400);
    const props = await api.post('/blocks', { type: 'board', props: { title: 42 }, circleId: w.circleId });
    expect(props.status).toBe(400);
    expect(props.body.issues[0].path).toEqual(['props', 'title']);
    const big = await api.post('/blocks', { type: 'board', props: { title: 'x', pad: 'y'.repeat(17_000) }, circleId: w.circleId });
    expect(big.status).toBe(400);
    const type = await api.post('/blocks', { type: 'nope', props: {}, circleId: w.circleId });
    expect(type.status).toBe(422);
    expect(type.body._tag).toBe('PlatformAppBlockTypeUnknownError');
    await w.stack.db.query(`update installs set approved_scopes = approved_scopes - 'blocks:write' where id = $1`, [w.installId]);
    try {
      const scope = await (await w.app()).post('/blocks', { type: 'board', props: { title: 'x' }, circleId: w.circleId });
      expect(scope.status).toBe(403);
      expect(scope.body).toMatchObject({ _tag: 'PlatformAppScopeMissingError', scope: 'blocks:write' });
    } finally {
      await w.stack.db.query(`update installs set approved_scopes = approved_scopes || '["blocks:write"]'::jsonb where id = $1`, [w.installId]);
    }
  });
});

describe('read and query', () => {
  it('reads own blocks without a scope; another install\'s blocks answer as if absent', async () => {
    const mine = await w.insert({ title: 'Mine' });
    expect((await (await w.app()).get(`/blocks/${mine.id}`)).body).toMatchObject({ id: mine.id, props: { title: 'Mine' } });
    const ws2 = await w.stack.createWorkspace({ name: 'Elsewhere' });
    const consent = await ws2.client.get(`/apps/${w.appId}/consent`);
    const installed = await ws2.client.post(`/apps/${w.appId}/installs`, { version: consent.body.consent.version });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const basic = Buffer.from(`${w.clientId}:${w.clientSecret}`).toString('base64');
    const minted = await w.stack.v0().request('POST', `/apps/installs/${installed.body.install.id}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
    const other = w.stack.v0(minted.body.token);
    const res = await other.get(`/blocks/${mine.id}`);
    expect(res.status).toBe(404);
    expect(res.body._tag).toBe('PlatformAppBlockNotFoundError');
    expect((await other.patch(`/blocks/${mine.id}`, { state: { count: 1 } })).status).toBe(404);
    expect((await other.post('/blocks/query', {})).body.items).toEqual([]);
  });

  it('queries by stateMatch, newest first, with a cursor and a limit', async () => {
    const api = await w.app();
    const tagged = [];
    for (let i = 0; i < 3; i++) {
      const b = await w.insert({ title: `Q${i}` });
      await api.patch(`/blocks/${b.id}`, { state: { note: 'tagged' } });
      tagged.push(b.id);
      w.stack.clock.advance(1_000);
    }
    const first = await api.post('/blocks/query', { type: 'board', stateMatch: { note: 'tagged' }, limit: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.items.map((b: any) => b.id)).toEqual([tagged[2], tagged[1]]);
    const second = await api.post('/blocks/query', { type: 'board', stateMatch: { note: 'tagged' }, limit: 2, cursor: first.body.nextCursor });
    expect(second.body).toMatchObject({ items: [{ id: tagged[0] }], nextCursor: null });
    expect((await api.post('/blocks/query', { stateMatch: { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, i: 1 } })).status).toBe(400);
    expect((await api.post('/blocks/query', { stateMatch: { note: ['tagged'] } })).status).toBe(400);
    expect((await api.post('/blocks/query', { cursor: 'garbage' })).status).toBe(400);
  });
});

describe('update, replace, revalidate', () => {
  it('PATCH merges, PUT replaces; both re-render; expectedVersion guards', async () => {
    const { id } = await w.insert();
    const api = await w.app();
    const renders = w.board.of('block.render').length;
    const merged = await api.patch(`/blocks/${id}`, { state: { count: 5 }, expectedVersion: 1 });
    expect(merged.body).toMatchObject({ state: { count: 5, note: '' }, version: 2 });
    await w.settled();
    expect(w.board.of('block.render').length).toBe(renders + 1);
    expect((await view(w.ws.client, id)).summary).toBe('Board: 5');

    const conflict = await api.patch(`/blocks/${id}`, { state: { count: 6 }, expectedVersion: 1 });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ _tag: 'PlatformAppBlockVersionConflictError', message: expect.any(String), path: ['expectedVersion'], blockId: id, expectedVersion: 1, currentVersion: 2 });

    // The whole state: the state schema wants `note` too.
    expect((await api.put(`/blocks/${id}`, { state: { count: 1 } })).body).toMatchObject({ _tag: 'PlatformAppBlockStateInvalidError', path: ['state', 'note'] });
    const replaced = await api.put(`/blocks/${id}`, { state: { count: 1, note: 'fresh' }, expectedVersion: 2 });
    expect(replaced.body).toMatchObject({ state: { count: 1, note: 'fresh' }, version: 3 });
    const invalid = await api.put(`/blocks/${id}`, { state: { count: -1, note: '' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ _tag: 'PlatformAppBlockStateInvalidError', blockId: id, path: ['state', 'count'] });
    expect((await api.patch(`/blocks/${id}`, { state: { pad: 'x'.repeat(70_000) } })).status).toBe(400);
  });

  it('revalidate sends block.render', async () => {
    const { id } = await w.insert();
    // Background renders of earlier tests land first: counted from a settled world (flaked under load).
    await w.settled();
    const renders = w.board.of('block.render').length;
    const res = await (await w.app()).post(`/blocks/${id}/revalidate`, {});
    expect(res.body).toEqual({ scheduled: true });
    await w.settled();
    expect(w.board.of('block.render').length).toBe(renders + 1);
    // An identical render keeps the revision: members' references stay valid.
    expect((await view(w.ws.client, id)).revision).toBe(1);
  });
});

describe('bulk update by state', () => {
  it('merges into matching blocks, skips final ones, re-renders each touched block', async () => {
    const api = await w.app();
    const group = `g${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const b = await w.insert({ title: `Bulk ${i}` });
      await api.patch(`/blocks/${b.id}`, { state: { note: group } });
      ids.push(b.id);
    }
    const closed = await view(w.ws.client, ids[2]!);
    await w.ws.client.post(`/blocks/${ids[2]}/click`, { revision: closed.revision, ref: refOf(closed.tree, 'Close') });
    await w.settled();
    const renders = w.board.of('block.render').length;
    const res = await api.patch('/blocks', { type: 'board', stateMatch: { note: group }, state: { count: 77 } });
    expect(res.body).toEqual({ updatedCount: 2 });
    await w.settled();
    const rendered = w.board.of('block.render').slice(renders).map((d) => d.data.block.id).sort();
    expect(rendered).toEqual([ids[0], ids[1]].sort());
    expect((await api.get(`/blocks/${ids[0]}`)).body.state).toEqual({ count: 77, note: group });
    expect((await api.get(`/blocks/${ids[2]}`)).body.state.count).toBe(1);
    expect((await view(w.member.client, ids[1]!)).summary).toBe('Bulk 1: 77');
  });

  it('answers the spec\'s 422s and changes nothing when one merged state would be invalid', async () => {
    const api = await w.app();
    const type = await api.patch('/blocks', { type: 'poll', stateMatch: {}, state: { a: 1 } });
    expect(type.status).toBe(422);
    expect(type.body._tag).toBe('PlatformAppBlockTypeUnknownError');
    const { id } = await w.insert({ title: 'Strict' });
    await api.patch(`/blocks/${id}`, { state: { note: 'strict' } });
    const invalid = await api.patch('/blocks', { type: 'board', stateMatch: { note: 'strict' }, state: { count: 'many' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ _tag: 'PlatformAppBlockStateInvalidError', blockId: id });
    expect((await api.get(`/blocks/${id}`)).body.state).toEqual({ count: 0, note: 'strict' });
    expect((await api.patch('/blocks', { type: 'board', stateMatch: { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, i: 1 }, state: {} })).status).toBe(400);
    const noScope = w.stack.v0(await w.installToken());
    await w.stack.db.query(`update installs set approved_scopes = approved_scopes - 'blocks:write' where id = $1`, [w.installId]);
    try {
      expect((await noScope.patch('/blocks', { type: 'board', stateMatch: {}, state: {} })).status).toBe(403);
    } finally {
      await w.stack.db.query(`update installs set approved_scopes = approved_scopes || '["blocks:write"]'::jsonb where id = $1`, [w.installId]);
    }
  });
});

it('documents the block paths in /v0/openapi.json', async () => {
  const doc = await (await w.stack.fetch('/v0/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
  expect(Object.keys(doc.paths['/v0/blocks'] ?? doc.paths['/blocks'] ?? {}).sort()).toEqual(['patch', 'post']);
  const paths = Object.keys(doc.paths);
  for (const p of ['blocks/query', 'blocks/{block_id}', 'blocks/{block_id}/revalidate']) expect(paths.some((k) => k.endsWith(p))).toBe(true);
  const clientDoc = await (await w.stack.fetch('/client/v1/openapi.json')).json() as { paths: Record<string, unknown> };
  for (const p of ['click', 'submit', 'change', 'search']) expect(Object.keys(clientDoc.paths).some((k) => k.endsWith(`/blocks/{blockId}/${p}`))).toBe(true);
});
