/**
 * Sharing and dismissing private answers over real HTTP (`POST /client/v1/invocations/{id}/share`
 * and `/dismiss`), against the relay fixture app: a shared answer is posted where a public answer
 * would have been (a conversation, a message action's thread; a block through the insert path),
 * exactly once even when two shares race; a block cannot go into a direct chat (the answer stays
 * private); dismissed answers are gone; after 24 hours nothing can be shared; public and failed
 * runs, other members' runs, read-only, unreachable and deleted places are refused with their tags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayServer, type RelayServer } from '../../fixtures/invocations/server.ts';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let relay: RelayServer;
let ws: CreatedWorkspace;
let member: { member: { id: string }; client: ApiClient };
let circleId: string;
let conversationId: string;
let appId: string;

beforeAll(async () => {
  stack = await startStack();
  relay = await startRelayServer({ now: () => stack.clock.now() });
  ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
  member = await stack.addMember(ws.apiKey, { role: 'member', name: 'Mia Member' });
  circleId = (await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true })).body.circle.id;
  conversationId = (await ws.client.post(`/circles/${circleId}/conversations`, { title: 'Plans' })).body.conversation.id;
  const created = await ws.client.post('/apps', { name: 'Relay', slug: 'relay', hosting: 'self', endpoint: { url: relay.endpoint } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
  relay.configure({ signingSecret: created.body.signingSecret, apiUrl: stack.url });
  expect((await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: relay.app.manifest, target: 'production' })).status).toBe(200);
  const consent = await ws.client.get(`/apps/${appId}/consent`);
  expect((await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version })).status).toBe(201);
});
afterAll(async () => {
  await relay?.close();
  await stack?.stop();
});

const DAY = 24 * 3_600_000;
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const inConversation = () => ({ kind: 'circle', circleId, conversationId });

async function ran(command: string, surface: unknown = inConversation(), client: ApiClient = member.client): Promise<any> {
  const res = await client.post('/commands/run', { appId, command, options: command === 'echo' ? { text: 'x' } : {}, surface });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.invocation;
}
const share = (id: string, client: ApiClient = member.client) => client.post(`/invocations/${id}/share`, {});
const dismiss = (id: string, client: ApiClient = member.client) => client.post(`/invocations/${id}/dismiss`, {});
const conflict = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body._tag).toBe('PlatformApiConflictError');
};

describe('sharing', () => {
  it('posts the private content in the conversation as the app; the run is a public answer since, and only once', async () => {
    const run = await ran('whisper');
    expect(run).toMatchObject({ visibility: 'private', answer: { content: doc('only you') }, sharedAt: null, dismissedAt: null });
    stack.clock.advance(60_000);
    const res = await share(run.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      outcome: 'shared', error: null,
      invocation: { id: run.id, status: 'answered', visibility: 'public', answer: null, blockId: null, sharedAt: new Date(stack.clock.now()).toISOString(), dismissedAt: null },
    });
    const [messageId] = res.body.invocation.messageIds;
    const message = (await ws.client.get(`/messages/${messageId}`)).body.message;
    expect(message).toMatchObject({ circleId, conversationId, replyTo: null, author: { kind: 'app', appId }, content: doc('only you') });
    expect((await member.client.get(`/invocations/${run.id}`)).body.invocation).toEqual(res.body.invocation);
    conflict(await share(run.id));
    conflict(await dismiss(run.id));
  });

  it('a private answer with a block: the content is posted and the block inserted through the insert path', async () => {
    const run = await ran('peek');
    expect(run.notice).toEqual({ tone: 'info', text: 'Just for you' });
    const res = await share(run.id);
    expect(res.body).toMatchObject({ outcome: 'shared', invocation: { visibility: 'public', blockId: expect.stringMatching(/^blk_/) } });
    expect(res.body.invocation.messageIds).toHaveLength(1);
    // The notice stays the invoker's.
    expect(res.body.invocation.notice).toEqual({ tone: 'info', text: 'Just for you' });
    const block = await ws.client.get(`/blocks/${res.body.invocation.blockId}`);
    expect(block.status).toBe(200);
    expect(block.body.block).toMatchObject({ circleId, conversationId, summary: 'Peeked: 0' });
  });

  it('a message action\'s private answer goes into its message\'s thread', async () => {
    const root = await member.client.post(`/conversations/${conversationId}/messages`, { markdown: 'root message' });
    const rootId = root.body.message.id;
    const acted = await member.client.post('/message-actions/run', { appId, actionId: 'summarize-thread', messageId: rootId });
    expect(acted.body.invocation).toMatchObject({ visibility: 'private', answer: { content: doc('thread') } });
    const res = await share(acted.body.invocation.id);
    expect(res.body.outcome).toBe('shared');
    const reply = (await ws.client.get(`/messages/${res.body.invocation.messageIds[0]}`)).body.message;
    expect(reply).toMatchObject({ replyTo: rootId, conversationId, author: { kind: 'app' } });
  });

  it('two shares at once post once: one answers shared, the other 409', async () => {
    const run = await ran('whisper');
    const before = (await stack.db.query<{ n: number }>('select count(*)::int as n from messages where author_app_id = $1', [appId])).rows[0]!.n;
    const results = await Promise.all([share(run.id), share(run.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = (await stack.db.query<{ n: number }>('select count(*)::int as n from messages where author_app_id = $1', [appId])).rows[0]!.n;
    expect(after - before).toBe(1);
  });

  it('a block cannot go into a direct chat: outcome failed, nothing posted, the answer stays private (and can be dismissed)', async () => {
    const run = await ran('peek', { kind: 'dm', partnerMemberId: ws.owner.id });
    const res = await share(run.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      outcome: 'failed', error: { message: expect.stringContaining('direct message') },
      invocation: { visibility: 'private', answer: { content: doc('a peek') }, messageIds: [], sharedAt: null },
    });
    expect((await dismiss(run.id)).status).toBe(200);
  });

  it('content alone goes into a direct chat', async () => {
    const run = await ran('whisper', { kind: 'dm', partnerMemberId: ws.owner.id });
    const res = await share(run.id);
    expect(res.body.outcome).toBe('shared');
    const message = await ws.client.get(`/messages/${res.body.invocation.messageIds[0]}`);
    expect(message.status).toBe(200);
    expect(message.body.message).toMatchObject({ circleId: null, author: { kind: 'app' } });
  });
});

describe('dismissing', () => {
  it('hides the answer for good; again keeps the first time; a dismissed answer cannot be shared', async () => {
    const run = await ran('whisper');
    const at = new Date(stack.clock.now()).toISOString();
    const res = await dismiss(run.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invocation).toMatchObject({ id: run.id, visibility: 'private', answer: null, dismissedAt: at, sharedAt: null });
    stack.clock.advance(1_000);
    expect((await dismiss(run.id)).body.invocation.dismissedAt).toBe(at);
    expect((await member.client.get(`/invocations/${run.id}`)).body.invocation.answer).toBeNull();
    conflict(await share(run.id));
  });
});

describe('what can be shared or dismissed', () => {
  it('after 24 hours the answer is gone: share is 409, dismiss changes nothing visible', async () => {
    const run = await ran('whisper');
    stack.clock.advance(DAY);
    conflict(await share(run.id));
    const res = await dismiss(run.id);
    expect(res.status).toBe(200);
    expect(res.body.invocation.answer).toBeNull();
  });

  it('just before 24 hours it can still be shared', async () => {
    const run = await ran('whisper');
    stack.clock.advance(DAY - 1);
    expect((await share(run.id)).body.outcome).toBe('shared');
  });

  it('public and failed runs have no private answer: 409', async () => {
    const echo = await ran('echo');
    expect(echo.visibility).toBe('public');
    const warned = await ran('warn');
    expect(warned.status).toBe('failed');
    for (const id of [echo.id, warned.id]) {
      conflict(await share(id));
      conflict(await dismiss(id));
    }
  });

  it('someone else\'s run, another workspace, or no such run: 404', async () => {
    const run = await ran('whisper');
    const foreign = await stack.createWorkspace({ ownerName: 'Fay Foreign' });
    for (const [id, client] of [[run.id, ws.client], [run.id, foreign.client], ['inv_nope', member.client]] as const) {
      for (const res of [await share(id, client), await dismiss(id, client)]) {
        expect(res.status).toBe(404);
        expect(res.body._tag).toBe('PlatformApiNotFoundError');
      }
    }
    expect((await member.client.get(`/invocations/${run.id}`)).body.invocation.answer).not.toBeNull();
    expect((await stack.client().post(`/invocations/${run.id}/share`, {})).status).toBe(401);
  });

  it('a circle the app can no longer reach: 403, nothing posted, still private', async () => {
    const secret = (await ws.client.post('/circles', { name: `Secret ${Math.random().toString(36).slice(2, 8)}`, visibility: 'private', chat: true })).body.circle.id;
    expect((await ws.client.put(`/circles/${secret}/app-invitations/${appId}`)).status).toBeLessThan(300);
    const run = await ran('whisper', { kind: 'circle', circleId: secret, conversationId: null }, ws.client);
    expect(run.visibility).toBe('private');
    expect((await ws.client.delete(`/circles/${secret}/app-invitations/${appId}`)).status).toBe(204);
    const res = await share(run.id, ws.client);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body._tag).toBe('PlatformApiForbiddenError');
    expect((await ws.client.get(`/invocations/${run.id}`)).body.invocation).toMatchObject({ visibility: 'private', sharedAt: null });
  });

  it('the message a message action answered was deleted: 404', async () => {
    const root = await member.client.post(`/conversations/${conversationId}/messages`, { markdown: 'soon gone' });
    const rootId = root.body.message.id;
    const acted = await member.client.post('/message-actions/run', { appId, actionId: 'summarize-thread', messageId: rootId });
    expect((await member.client.delete(`/messages/${rootId}`)).status).toBe(204);
    const res = await share(acted.body.invocation.id);
    expect(res.status).toBe(404);
    expect(res.body._tag).toBe('PlatformApiNotFoundError');
  });
});
