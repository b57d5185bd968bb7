/**
 * Commands and message actions end to end over real HTTP, against the relay fixture app
 * (test/fixtures/invocations): options checked at their boundaries, both surfaces, every context
 * level, public and private answers, rule 6, deferral within and after 15 minutes (injected
 * clock), respond twice, another install's token, invalid and 2 MB answers.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelayServer, type RelayServer } from '../../fixtures/invocations/server.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let relay: RelayServer;
let ws: CreatedWorkspace;
let member: any;
let circleId: string;
let conversationId: string;
let appId: string;
let basic: string;
let installId: string;

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
  const synced = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: relay.app.manifest, target: 'production' });
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  const consent = await ws.client.get(`/apps/${appId}/consent`);
  const installed = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  installId = installed.body.install.id;
  basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
});
afterAll(async () => {
  await relay?.close();
  await stack?.stop();
});

const MINUTE = 60_000;
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const inConversation = () => ({ kind: 'circle', circleId, conversationId });
const run = (command: string, options: Record<string, unknown> = {}, surface: unknown = inConversation(), client = member.client) =>
  client.post('/commands/run', { appId, command, options, surface });
const last = (type: string) => relay.deliveries.filter((d) => d.type === type).at(-1)!;
const installToken = async () =>
  (await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } })).body.token as string;

it('runs a command with filled options only; a public answer is posted as the app and its notice goes to the invoker', async () => {
  const res = await run('echo', { text: 'hi', count: 3, ratio: 0.5, loud: false, size: 'l', who: { kind: 'member', memberId: member.member.id }, where: { kind: 'circle', circleId }, });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.invocation).toMatchObject({ status: 'answered', visibility: 'public', notice: { tone: 'success', text: 'Echoed' }, error: null });
  expect(res.body.invocation.messageIds).toHaveLength(1);
  const data = last('command.run').data;
  expect(data.options).toEqual({ text: 'hi', count: 3, ratio: 0.5, loud: false, size: 'l', who: { kind: 'member', memberId: member.member.id, name: 'Mia Member' }, where: { kind: 'circle', circleId, name: 'General' } });
  expect(data.surface).toEqual(inConversation());
  const message = await ws.client.get(`/messages/${res.body.invocation.messageIds[0]}`);
  expect(message.status).toBe(200);
  expect(JSON.stringify(message.body)).toContain('echo');

  // null and blank strings are options left empty: not sent.
  const onlyFilled = await run('echo', { text: 'x', count: null, size: '  ' });
  expect(onlyFilled.status).toBe(200);
  expect(last('command.run').data.options).toEqual({ text: 'x' });
});

it('checks options at their boundaries and writes nothing for bad input', async () => {
  const before = relay.deliveries.length;
  const cases: Array<[Record<string, unknown>, number]> = [
    [{}, 400], [{ text: '   ' }, 400], [{ text: 'a'.repeat(2_000) }, 200], [{ text: 'a'.repeat(2_001) }, 400],
    [{ text: 'x', count: 1.5 }, 400], [{ text: 'x', count: 2 ** 53 }, 400], [{ text: 'x', ratio: 'no' }, 400], [{ text: 'x', loud: 'yes' }, 400],
    [{ text: 'x', size: 'm' }, 400], [{ text: 'x', who: { kind: 'member', memberId: 'mem_nobody' } }, 400], [{ text: 'x', where: { kind: 'circle', circleId: 'cir_none' } }, 400],
    [{ text: 'x', extra: 1 }, 400],
  ];
  let sent = 0;
  for (const [options, status] of cases) {
    const res = await run('echo', options);
    expect(res.status, JSON.stringify({ options: Object.keys(options), body: res.body })).toBe(status);
    if (status === 400) expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    else sent++;
  }
  expect(relay.deliveries.length - before).toBe(sent);
  expect((await run('nope')).status).toBe(400);
  expect((await member.client.post('/commands/run', { appId, command: 'echo', options: { text: 'x' }, surface: inConversation(), extra: 1 })).status).toBe(400);
  expect((await member.client.post('/commands/run', { appId: 'app_none', command: 'echo', options: { text: 'x' }, surface: inConversation() })).status).toBe(404);
});

it('a private answer is kept for the invoker for 24 hours and shown to nobody else', async () => {
  const res = await run('whisper');
  expect(res.body.invocation).toMatchObject({ status: 'answered', visibility: 'private', answer: { content: doc('only you') }, messageIds: [] });
  const id = res.body.invocation.id;
  expect((await ws.client.get(`/invocations/${id}`)).status).toBe(404);
  expect((await member.client.get(`/invocations/${id}`)).body.invocation.answer).toEqual({ content: doc('only you') });
  stack.clock.advance(24 * 60 * MINUTE + 1);
  expect((await member.client.get(`/invocations/${id}`)).body.invocation.answer).toBeNull();
});

it('a public block answer is inserted through the blocks insert path', async () => {
  const res = await run('board');
  expect(res.body.invocation).toMatchObject({ status: 'answered', visibility: 'public' });
  expect(res.body.invocation.blockId).toMatch(/^blk_/);
  expect((await ws.client.get(`/blocks/${res.body.invocation.blockId}`)).body.block.summary).toBe('From a command: 0');
});

it('rule 6: a danger notice without content or block fails the run', async () => {
  const res = await run('warn');
  expect(res.body.invocation).toMatchObject({ status: 'failed', notice: { tone: 'danger', text: 'Broke' }, error: { message: 'The app reported that this failed.' } });
});

it('runs in a direct chat; a public answer lands there as the app', async () => {
  const res = await run('echo', { text: 'dm' }, { kind: 'dm', partnerMemberId: ws.owner.id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.invocation).toMatchObject({ status: 'answered', visibility: 'public' });
  expect(last('command.run').data.surface).toEqual({ kind: 'dm', partnerMemberId: ws.owner.id });
  const seen = await ws.client.get(`/messages/${res.body.invocation.messageIds[0]}`);
  expect(seen.status).toBe(200);
  expect((await run('echo', { text: 'x' }, { kind: 'dm', partnerMemberId: member.member.id })).status).toBe(404);
  expect((await run('board', {}, { kind: 'dm', partnerMemberId: ws.owner.id })).body.invocation.status).toBe('failed');
});

it('a surface outside the install\'s reach or unseen by the member is refused', async () => {
  const secret = (await ws.client.post('/circles', { name: 'Secret', visibility: 'private', chat: true })).body.circle.id;
  expect((await run('echo', { text: 'x' }, { kind: 'circle', circleId: secret, conversationId: null }, ws.client)).status).toBe(403);
  expect((await run('echo', { text: 'x' }, { kind: 'circle', circleId: secret, conversationId: null })).status).toBe(404);
});

it('message actions send the context their version declares', async () => {
  const root = await member.client.post(`/conversations/${conversationId}/messages`, { markdown: 'root message' });
  expect(root.status, JSON.stringify(root.body)).toBe(201);
  const rootId = root.body.message.id;
  const reply = await ws.client.post(`/messages/${rootId}/replies`, { markdown: 'a reply' });
  const replyId = reply.body.message.id;

  const quoted = await member.client.post('/message-actions/run', { appId, actionId: 'quote', messageId: rootId });
  expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
  let data = last('messageAction.run').data;
  expect(data.context.level).toBe('message');
  expect(data.context.thread).toBeUndefined();
  expect(data.message).toMatchObject({ id: rootId, conversationId, text: 'root message', author: { kind: 'member', id: member.member.id } });
  expect(data.surface).toEqual({ kind: 'circle', circleId, conversationId });

  await member.client.post('/message-actions/run', { appId, actionId: 'summarize-thread', messageId: replyId });
  data = last('messageAction.run').data;
  expect(data.context.level).toBe('thread');
  // The public answer of `quote` was posted in the message's thread (same instant of the injected clock: order among them is by id).
  expect(data.context.thread.map((m: any) => m.text).sort()).toEqual(['a reply', 'quoted: root message', 'root message']);

  await member.client.post('/message-actions/run', { appId, actionId: 'summarize', messageId: rootId });
  data = last('messageAction.run').data;
  expect(data.context.conversation).toMatchObject({ id: conversationId, title: 'Plans', agreed: null });
  expect(data.context.conversation.messages.map((m: any) => m.text)).toContain('root message');

  const chat = await member.client.post(`/circles/${circleId}/messages`, { markdown: 'chat one' });
  await member.client.post(`/circles/${circleId}/messages`, { markdown: 'chat two' });
  await member.client.post('/message-actions/run', { appId, actionId: 'summarize', messageId: chat.body.message.id });
  data = last('messageAction.run').data;
  expect(data.message.conversationId).toBeNull();
  expect(data.context.surrounding.map((m: any) => m.text)).toContain('chat two');
  expect((await member.client.post('/message-actions/run', { appId, actionId: 'nope', messageId: rootId })).status).toBe(400);
  expect((await member.client.post('/message-actions/run', { appId, actionId: 'quote', messageId: 'msg_none' })).status).toBe(404);
});

it('a public deferral is pending for everyone for 15 minutes; respond answers once; a second answer conflicts', async () => {
  const res = await run('later');
  const start = stack.clock.now();
  expect(res.body.invocation).toMatchObject({ status: 'pending', visibility: 'public', pendingUntil: new Date(start + 15 * MINUTE).toISOString() });
  const id = res.body.invocation.id;
  expect((await ws.client.get(`/invocations/${id}`)).body.invocation.status).toBe('pending');
  const token = last('command.run').data.interactionToken;
  stack.clock.advance(14 * MINUTE);
  const app = stack.v0(await installToken());
  const answered = await app.post('/invocations/respond', { interactionToken: token, answer: { visibility: 'public', content: doc('done later') } });
  expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  expect(answered.body).toEqual({ ok: true });
  const after = (await member.client.get(`/invocations/${id}`)).body.invocation;
  expect(after).toMatchObject({ status: 'answered' });
  expect(after.messageIds).toHaveLength(1);
  const again = await app.post('/invocations/respond', { interactionToken: token, answer: { visibility: 'public', content: doc('twice') } });
  expect(again.status).toBe(409);
  expect(again.body._tag).toBe('PlatformApiConflictError');
});

it('a private deferral is seen only by the invoker; after 15 minutes respond is refused and the run failed', async () => {
  const res = await run('quietly');
  const id = res.body.invocation.id;
  expect((await ws.client.get(`/invocations/${id}`)).status).toBe(404);
  const token = last('command.run').data.interactionToken;
  const invalid = await stack.v0(await installToken()).post('/invocations/respond', { interactionToken: token, answer: { visibility: 'public', extra: 1 } });
  expect(invalid.status).toBe(400);
  stack.clock.advance(15 * MINUTE + 1_000);
  const late = await stack.v0(await installToken()).post('/invocations/respond', { interactionToken: token, answer: { visibility: 'private' } });
  expect(late.status).toBe(401);
  expect(late.body._tag).toBe('PlatformAppInteractionExpiredError');
  expect((await member.client.get(`/invocations/${id}`)).body.invocation).toMatchObject({ status: 'failed', error: { message: "The app didn't finish in time." } });
});

it('another install\'s token answers as if the run did not exist; no token is 401', async () => {
  await run('quietly');
  const token = last('command.run').data.interactionToken;
  const other = await ws.client.post('/apps', { name: 'Other', slug: 'other-app', hosting: 'self', endpoint: { url: relay.endpoint } });
  await stack.v0(ws.apiKey).put(`/apps/${other.body.app.id}/manifest`, { manifest: { ...relay.app.manifest, name: 'Other', slug: 'other-app' }, target: 'production' });
  const consent = await ws.client.get(`/apps/${other.body.app.id}/consent`);
  const installed = await ws.client.post(`/apps/${other.body.app.id}/installs`, { version: consent.body.consent.version });
  const otherBasic = Buffer.from(`${other.body.clientId}:${other.body.clientSecret}`).toString('base64');
  const otherToken = (await stack.v0().request('POST', `/apps/installs/${installed.body.install.id}/access-tokens`, { body: {}, headers: { authorization: `Basic ${otherBasic}` } })).body.token;
  const res = await stack.v0(otherToken).post('/invocations/respond', { interactionToken: token, answer: { visibility: 'private' } });
  expect(res.status).toBe(404);
  expect((await stack.v0().post('/invocations/respond', { interactionToken: token, answer: { visibility: 'private' } })).status).toBe(401);
});

it('an invalid answer, a 2 MB answer and a bad deferral each show a failure card', async () => {
  for (const name of ['raw-invalid', 'raw-huge', 'raw-bad-deferral']) {
    const res = await run(name);
    expect(res.status).toBe(200);
    expect(res.body.invocation.status, name).toBe('failed');
    expect(res.body.invocation.error.message).toMatch(/answer/);
  }
});

it('an app that stays silent past the 30 s wait shows a failure card (real wait: the engine\'s limit is the spec\'s)', async () => {
  const res = await run('raw-silent');
  expect(res.status).toBe(200);
  expect(res.body.invocation.status).toBe('failed');
  expect(res.body.invocation.error.message).toBe("The app didn't answer. Try again.");
}, 45_000);
