/**
 * Every row of the spec's ActionResult table, over real HTTP: a member clicks in the client API,
 * the control plane delivers `block.action` to the board fixture app (a Node server written with
 * the authoring API), and applies its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../control-plane/src/core/log/logger.ts';
import { sendNotifications } from '../../../control-plane/src/messaging/notifications/notify.ts';
import { click, refOf, startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

const notificationsOf = async (memberId: string) =>
  (await w.stack.db.query<{ text: string; block_id: string; app_id: string }>('select text, block_id, app_id from notifications where member_id = $1 order by created_at, text', [memberId])).rows;

describe('state, tree and actions', () => {
  it('a new state and its tree replace the old ones: version and revision move on', async () => {
    const { id } = await w.insert();
    const before = await view(w.ws.client, id);
    const out = await click(w.ws.client, id, 'Add one');
    expect(out.outcome).toBe('applied');
    expect(out.block.summary).toBe('Board: 1');
    expect(out.block.version).toBe(before.version + 1);
    expect(out.block.revision).toBe(before.revision + 1);
    expect(JSON.stringify(out.block.tree)).toContain('Board: 1');
    // The action table never reaches the member.
    expect(JSON.stringify(out.block)).not.toContain('"name":"inc"');
    const record = await (await w.app()).get(`/blocks/${id}`);
    expect(record.body).toMatchObject({ state: { count: 1 }, version: before.version + 1, revision: before.revision + 1, final: false });
  });

  it('the delivery carries the block as delivered, the stored action and args, tallies, an invocation id and an interaction token', async () => {
    const { id } = await w.insert();
    const sent = w.board.deliveries.length;
    await click(w.ws.client, id, 'Add one');
    const delivery = w.board.deliveries.slice(sent).find((d) => d.type === 'block.action')!;
    expect(delivery.headers['platform-delivery']).toBe('interactive');
    expect(delivery.headers['platform-install']).toBe(w.installId);
    expect(delivery.headers['webhook-id']).toBe(delivery.id);
    expect(delivery.actor).toEqual({ memberId: w.ws.owner.id, name: 'Olive Owner' });
    expect(delivery.installToken?.token).toMatch(/^platapp_/);
    expect(delivery.data.block).toMatchObject({ id, type: 'board', props: { title: 'Board' }, state: { count: 0 }, revision: 1, version: 1 });
    expect(delivery.data.action).toEqual({ name: 'inc', args: { by: 1 } });
    expect(delivery.data.tallies).toEqual({ lunch: { pizza: 0, sushi: 0, salad: 0 }, secret: { yes: 0, no: 0 } });
    expect(delivery.data.invocationId).toMatch(/^inv_/);
    expect(delivery.data.interactionToken).toMatch(/^platint_/);
  });

  it('an action written with the SDK answers its new state with the tree drawn for it: one delivery per click, no block.render', async () => {
    const { id } = await w.insert();
    const [actions, renders] = [w.board.of('block.action').length, w.board.of('block.render').length];
    const out = await click(w.ws.client, id, 'Add one');
    await w.settled();
    expect(out.block.summary).toBe('Board: 1');
    expect(w.board.of('block.action').length).toBe(actions + 1);
    expect(w.board.of('block.render').length).toBe(renders);
  });

  it('a state without a tree is stored and the tree stays: a render follows an action only when it says revalidate', async () => {
    const { id } = await w.insert();
    const before = await view(w.ws.client, id);
    const renders = w.board.of('block.render').length;
    const out = await click(w.ws.client, id, 'raw-state-only');
    await w.settled();
    expect(out.outcome).toBe('applied');
    expect(out.block).toMatchObject({ summary: 'Board: 0', revision: before.revision, version: before.version + 1 });
    expect(w.board.of('block.render').length).toBe(renders);
    expect((await (await w.app()).get(`/blocks/${id}`)).body.state).toEqual({ count: 42, note: 'from raw' });
    // Nothing came due: viewing it renders nothing either.
    expect((await view(w.ws.client, id)).summary).toBe('Board: 0');
    expect(w.board.of('block.render').length).toBe(renders);
  });

  it('a state without a tree with revalidate: block.render right after the answer, with the new state', async () => {
    const { id } = await w.insert();
    const renders = w.board.of('block.render').length;
    const out = await click(w.ws.client, id, 'raw-state-revalidate');
    expect(out.outcome).toBe('applied');
    await w.settled();
    expect(w.board.of('block.render').length).toBe(renders + 1);
    expect(w.board.of('block.render').at(-1)!.data).toMatchObject({ mode: 'interactive', block: { id, state: { count: 7, note: 'revalidated' } } });
    expect((await view(w.ws.client, id)).summary).toBe('Board: 7');
  });

  it('a state outside the state schema fails the action: nothing changes, the member sees an inline error', async () => {
    const { id } = await w.insert();
    const before = await view(w.ws.client, id);
    const out = await click(w.ws.client, id, 'raw-bad-state');
    expect(out.outcome).toBe('failed');
    expect(out.error.message).toMatch(/could not be used/);
    expect(out.block).toMatchObject({ revision: before.revision, version: before.version, summary: before.summary, error: { message: out.error.message } });
    expect(out.block.tree).toEqual(before.tree);
    // The inline error is the acting member's; another member does not see it.
    expect((await view(w.member.client, id)).error).toBeNull();
    // The next good action clears it.
    expect((await click(w.ws.client, id, 'Add one')).block.error).toBeNull();
  });

  it('a tree that breaks the catalog keeps the previous tree and fails the action', async () => {
    const { id } = await w.insert();
    const before = await view(w.ws.client, id);
    const out = await click(w.ws.client, id, 'raw-bad-tree');
    expect(out.outcome).toBe('failed');
    expect(out.block.tree).toEqual(before.tree);
    expect(out.block.revision).toBe(before.revision);
    await w.settled();
    const failed = await w.ws.client.get(`/apps/${w.appId}/deliveries?class=interactive&type=block.action&outcome=failed`);
    expect(failed.body.items.some((d: any) => /^response-invalid \(PlatformAppResponseInvalidError\): The tree is invalid/.test(d.lastError))).toBe(true);
  });
});

describe('what the acting member is told', () => {
  it('notice: shown to the acting member, not stored', async () => {
    const { id } = await w.insert();
    const out = await click(w.ws.client, id, 'Notice');
    expect(out).toMatchObject({ outcome: 'applied', notice: { tone: 'success', text: 'Saved' }, fieldErrors: null, openUrl: null, error: null });
    expect(JSON.stringify(await view(w.ws.client, id))).not.toContain('Saved');
  });

  it('fieldErrors: shown by the field', async () => {
    const { id } = await w.insert();
    expect((await click(w.ws.client, id, 'Field errors')).fieldErrors).toEqual({ note: 'Too short' });
  });

  it('openUrl: answered once to the acting member; the block keeps an open link for them only', async () => {
    const { id } = await w.insert();
    const out = await click(w.ws.client, id, 'Open');
    expect(out.openUrl).toBe('https://docs.example.com/board?x=1');
    expect(out.block.openLink).toEqual({ url: 'https://docs.example.com/board?x=1', host: 'docs.example.com' });
    expect((await view(w.ws.client, id)).openLink).toEqual({ url: 'https://docs.example.com/board?x=1', host: 'docs.example.com' });
    expect((await view(w.member.client, id)).openLink).toBeNull();
  });
});

describe('final', () => {
  it('locks the block: the last tree stays, nothing more is delivered for it, the app API refuses changes', async () => {
    const { id } = await w.insert();
    const out = await click(w.ws.client, id, 'Close');
    expect(out.outcome).toBe('applied');
    expect(out.block.final).toMatchObject({ summary: 'Closed for good' });
    expect(out.block.summary).toBe('Closed for good');
    expect(JSON.stringify(out.block.tree)).toContain('Board: 1');
    const sent = w.board.deliveries.length;

    const refused = await w.ws.client.post(`/blocks/${id}/click`, { revision: out.block.revision, ref: refOf(out.block.tree, 'Add one') });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ _tag: 'PlatformAppBlockFinalError', blockId: id });
    const api = await w.app();
    expect((await api.patch(`/blocks/${id}`, { state: { count: 5 } })).body._tag).toBe('PlatformAppBlockFinalError');
    expect((await api.post(`/blocks/${id}/revalidate`, {})).body).toEqual({ scheduled: false });
    // Long after staleAfter, a view still renders nothing.
    w.stack.clock.advance(3_600_000);
    expect((await view(w.member.client, id)).final).not.toBeNull();
    await w.settled();
    expect(w.board.deliveries.length).toBe(sent);
    expect((await (await w.app()).get(`/blocks/${id}`)).body).toMatchObject({ final: true, state: { count: 1 } });
  });
});

describe('notify', () => {
  it('sends inbox notifications linking to the block', async () => {
    const { id } = await w.insert();
    expect((await click(w.member.client, id, 'Ping')).outcome).toBe('applied');
    expect(await notificationsOf(w.member.id)).toEqual([{ text: 'Ping 1', block_id: id, app_id: w.appId }]);
    await w.stack.db.query('delete from notifications');
  });

  it('needs notifications:write: without it the notifications are dropped and the rest of the result stands', async () => {
    const { id } = await w.insert();
    await w.stack.db.query(`update installs set approved_scopes = approved_scopes - 'notifications:write' where id = $1`, [w.installId]);
    try {
      const out = await click(w.member.client, id, 'Ping');
      expect(out.outcome).toBe('applied');
      expect(await notificationsOf(w.member.id)).toEqual([]);
    } finally {
      await w.stack.db.query(`update installs set approved_scopes = approved_scopes || '["notifications:write"]'::jsonb where id = $1`, [w.installId]);
    }
  });

  it('a development install notifies only its developer, as the notifications endpoint does', async () => {
    // Called directly: a development install's clicks travel through the development relay, which
    // this world does not run; the recipient rule is the part under test.
    const { id } = await w.insert();
    const source = { workspaceId: w.ws.workspace.id, appId: w.appId, installId: w.installId, blockId: id, scopes: ['notifications:write'] };
    const deps = { db: w.stack.db, kv: w.stack.kv, logger: createLogger(w.stack.config), now: new Date(w.stack.clock.now()) };
    w.stack.clock.advance(120_000);
    const items = [{ memberId: w.member.id, text: 'to the member' }, { memberId: w.ws.owner.id, text: 'to the developer' }];
    try {
      // The workspace owner created the app: they are its developer; the member is not.
      expect(await sendNotifications(deps, { ...source, installKind: 'dev' }, items)).toEqual({ sent: 1, dropped: 1, reason: 'not-members' });
      expect(await notificationsOf(w.member.id)).toEqual([]);
      expect(await notificationsOf(w.ws.owner.id)).toEqual([{ text: 'to the developer', block_id: id, app_id: w.appId }]);
      expect(await sendNotifications(deps, { ...source, installKind: 'workspace' }, items)).toEqual({ sent: 2, dropped: 0, reason: null });
    } finally {
      await w.stack.db.query('delete from notifications');
    }
  });

  it('at most 20 a result: 21 fail the action as an answer outside the result schema', async () => {
    const { id } = await w.insert();
    const out = await click(w.member.client, id, 'Ping 21');
    expect(out.outcome).toBe('failed');
    expect(await notificationsOf(w.member.id)).toEqual([]);
  });

  it('60 a minute per app, shared with the notifications endpoint (rate-limit key notifications:{appId})', async () => {
    const { id } = await w.insert();
    w.stack.clock.advance(120_000);
    for (let i = 0; i < 3; i++) expect((await click(w.member.client, id, 'Ping 20')).outcome).toBe('applied');
    expect((await notificationsOf(w.member.id)).length).toBe(60);
    // Over the limit the notifications are dropped; the action still succeeds.
    expect((await click(w.member.client, id, 'Ping 20')).outcome).toBe('applied');
    expect((await notificationsOf(w.member.id)).length).toBe(60);
    // The endpoint's budget is the same one.
    expect((await w.stack.kv.hit(`rl:notifications:${w.appId}`, 60, 60_000)).allowed).toBe(false);
    w.stack.clock.advance(61_000);
    await click(w.member.client, id, 'Ping');
    expect((await notificationsOf(w.member.id)).length).toBe(61);
    await w.stack.db.query('delete from notifications');
  });
});

describe('revalidate', () => {
  it('sends block.render right after the answer', async () => {
    const { id } = await w.insert();
    const renders = w.board.of('block.render').length;
    const out = await click(w.ws.client, id, 'Refresh');
    expect(out.notice).toEqual({ tone: 'info', text: 'Refreshing' });
    await w.settled();
    expect(w.board.of('block.render').length).toBe(renders + 1);
    expect(w.board.of('block.render').at(-1)!.data.block.id).toBe(id);
  });
});

describe('readOnly actions', () => {
  it('ignore state, tree, actions, final and notify; the notice is shown', async () => {
    const { id } = await w.insert();
    const before = await view(w.ws.client, id);
    const out = await click(w.member.client, id, 'Peek');
    expect(out).toMatchObject({ outcome: 'applied', notice: { tone: 'neutral', text: 'Count is 0' } });
    expect(out.block).toMatchObject({ version: before.version, revision: before.revision, summary: 'Board: 0', final: null });
    expect(out.block.tree).toEqual(before.tree);
    expect(await notificationsOf(w.member.id)).toEqual([]);
    expect((await (await w.app()).get(`/blocks/${id}`)).body.state).toEqual({ count: 0, note: '' });
  });
});
