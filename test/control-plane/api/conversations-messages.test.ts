/**
 * Conversations, messages, replies, chat, filing and direct messages through the client API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type ApiClient, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let ann: { member: { id: string }; client: ApiClient };
let bob: { member: { id: string }; client: ApiClient };
let eve: { member: { id: string }; client: ApiClient };
let general: { id: string };
let secret: { id: string };

const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text, marks: [{ type: 'bold' }] }] }] });

beforeAll(async () => {
  stack = await startStack();
  const { apiKey } = await stack.createWorkspace();
  ann = await stack.addMember(apiKey, { name: 'Ann', role: 'member' });
  bob = await stack.addMember(apiKey, { name: 'Bob', role: 'member' });
  eve = await stack.addMember(apiKey, { name: 'Eve', role: 'member' });
  general = (await ann.client.post('/circles', { name: 'General', visibility: 'public', chat: true })).body.circle;
  secret = (await ann.client.post('/circles', { name: 'Secret', visibility: 'private', chat: true })).body.circle;
  await ann.client.put(`/circles/${secret.id}/members/${bob.member.id}`);
});
afterAll(async () => stack.stop());

describe('conversations', () => {
  it('starts, reads, lists and updates a conversation (title, status, agreed)', async () => {
    const created = await ann.client.post(`/circles/${general.id}/conversations`, { title: 'Launch plan' });
    expect(created.status).toBe(201);
    const c = created.body.conversation;
    expect(c).toMatchObject({ id: expect.stringMatching(/^cnv_/), circleId: general.id, title: 'Launch plan', status: null, agreed: null, createdBy: ann.member.id });
    stack.clock.advance(1_000);
    const updated = await bob.client.patch(`/conversations/${c.id}`, { status: 'in review', agreed: true });
    expect(updated.body.conversation).toMatchObject({ title: 'Launch plan', status: 'in review', agreed: true });
    expect(updated.body.conversation.updatedAt).not.toBe(c.updatedAt);
    const cleared = await bob.client.patch(`/conversations/${c.id}`, { status: null, agreed: null, title: 'Launch' });
    expect(cleared.body.conversation).toMatchObject({ title: 'Launch', status: null, agreed: null });
    expect((await eve.client.get(`/conversations/${c.id}`)).body.conversation.title).toBe('Launch');
    const list = await eve.client.get(`/circles/${general.id}/conversations`);
    expect(list.body.items.map((x: { id: string }) => x.id)).toContain(c.id);
  });

  it('refuses an empty update and hides conversations of private circles from non-members', async () => {
    const c = (await ann.client.post(`/circles/${secret.id}/conversations`, { title: 'Hidden', status: 'open' })).body.conversation;
    expect(c.status).toBe('open');
    const empty = await ann.client.patch(`/conversations/${c.id}`, {});
    expect(empty.status).toBe(400);
    const hidden = await eve.client.get(`/conversations/${c.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body._tag).toBe('PlatformApiConversationNotFoundError');
    expect((await eve.client.patch(`/conversations/${c.id}`, { title: 'x' })).body._tag).toBe('PlatformApiConversationNotFoundError');
    expect((await eve.client.post(`/circles/${secret.id}/conversations`, { title: 'x' })).status).toBe(404);
  });
});

describe('messages and replies', () => {
  it('posts markdown and editor documents in a conversation and lists them oldest first', async () => {
    const c = (await ann.client.post(`/circles/${general.id}/conversations`, { title: 'Thread test' })).body.conversation;
    const m1 = await ann.client.post(`/conversations/${c.id}/messages`, { markdown: '**first**' });
    expect(m1.status).toBe(201);
    expect(m1.body.message).toMatchObject({
      id: expect.stringMatching(/^msg_/), circleId: general.id, conversationId: c.id, replyTo: null, recipientId: null,
      author: { kind: 'member', memberId: ann.member.id, name: 'Ann' }, markdown: '**first**', content: null, filedAt: null,
    });
    stack.clock.advance(1);
    const m2 = await bob.client.post(`/conversations/${c.id}/messages`, { content: doc('second') });
    expect(m2.body.message).toMatchObject({ content: doc('second'), markdown: null });
    const list = await eve.client.get(`/conversations/${c.id}/messages`);
    expect(list.body.items.map((m: { id: string }) => m.id)).toEqual([m1.body.message.id, m2.body.message.id]);
  });

  it('takes many messages and replies posted at once in one conversation (no deadlock between them)', async () => {
    const c = (await ann.client.post(`/circles/${general.id}/conversations`, { title: 'Busy' })).body.conversation;
    const posts = await Promise.all(Array.from({ length: 16 }, (_, i) => [ann, bob][i % 2]!.client.post(`/conversations/${c.id}/messages`, { markdown: `at once ${i}` })));
    expect(posts.map((p) => p.status)).toEqual(Array(16).fill(201));
    const root = posts[0]!.body.message;
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => [ann, bob][i % 2]!.client.post(`/messages/${root.id}/replies`, { markdown: `reply ${i}` })));
    expect(replies.map((r) => r.status)).toEqual(Array(16).fill(201));
  });

  it('threads replies under the root message, also when replying to a reply', async () => {
    const c = (await ann.client.post(`/circles/${general.id}/conversations`, { title: 'Replies' })).body.conversation;
    const root = (await ann.client.post(`/conversations/${c.id}/messages`, { markdown: 'root' })).body.message;
    const r1 = await bob.client.post(`/messages/${root.id}/replies`, { markdown: 'reply 1' });
    expect(r1.status).toBe(201);
    expect(r1.body.message).toMatchObject({ replyTo: root.id, conversationId: c.id, circleId: general.id });
    stack.clock.advance(1);
    const r2 = await ann.client.post(`/messages/${r1.body.message.id}/replies`, { content: doc('reply 2') });
    expect(r2.body.message.replyTo).toBe(root.id);
    const replies = await eve.client.get(`/messages/${root.id}/replies`);
    expect(replies.body.items.map((m: { id: string }) => m.id)).toEqual([r1.body.message.id, r2.body.message.id]);
    // Replies are not top-level messages of the conversation.
    expect((await eve.client.get(`/conversations/${c.id}/messages`)).body.items).toHaveLength(1);
    expect((await eve.client.get(`/messages/${r2.body.message.id}`)).body.message.id).toBe(r2.body.message.id);
  });

  it('requires exactly one of content and markdown, and bounds their size', async () => {
    const c = (await ann.client.post(`/circles/${general.id}/conversations`, { title: 'Validation' })).body.conversation;
    const path = `/conversations/${c.id}/messages`;
    for (const body of [{}, { markdown: 'a', content: doc('b') }, { markdown: '   ' }, { content: { type: 'doc', content: [] } }, { content: { type: 'paragraph', content: [] } }]) {
      const res = await ann.client.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
    const unknownNodeField = await ann.client.post(path, { content: { type: 'doc', content: [{ type: 'paragraph', colour: 'red' }] } });
    expect(unknownNodeField.body.issues[0].path).toEqual(['content', 'content', 0, 'colour']);
    expect((await ann.client.post(path, { markdown: 'x'.repeat(40_001) })).status).toBe(400);
    expect((await ann.client.post(path, { markdown: 'x'.repeat(40_000) })).status).toBe(201);
    const bigDoc = { type: 'doc', content: Array.from({ length: 700 }, () => ({ type: 'paragraph', content: [{ type: 'text', text: 'y'.repeat(100) }] })) };
    const tooBig = await ann.client.post(path, { content: bigDoc });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.issues[0].path).toEqual(['content']);
    // 20 node levels: within the request's nesting cap (64) but over the document's (32).
    let node: Record<string, unknown> = { type: 'text', text: 'deep' };
    for (let i = 0; i < 20; i++) node = { type: 'blockquote', content: [node] };
    const tooDeep = await ann.client.post(path, { content: { type: 'doc', content: [node] } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.issues[0]).toMatchObject({ path: ['content'], message: expect.stringMatching(/nests/) });
    const overCap = await ann.client.post(path, { markdown: 'z'.repeat(300 * 1024) });
    expect(overCap.status).toBe(413);
  });

  it('keeps private-circle messages from non-members', async () => {
    const m = (await ann.client.post(`/circles/${secret.id}/messages`, { markdown: 'psst' })).body.message;
    expect((await bob.client.get(`/messages/${m.id}`)).status).toBe(200);
    expect((await eve.client.get(`/messages/${m.id}`)).status).toBe(404);
    expect((await eve.client.post(`/messages/${m.id}/replies`, { markdown: 'hi' })).body._tag).toBe('PlatformApiReplyNotFoundError');
    expect((await eve.client.get(`/circles/${secret.id}/messages`)).status).toBe(404);
  });
});

describe('chat and filing', () => {
  it('posts chat messages unfiled (conversationId null) only in circles with chat', async () => {
    const chat = await bob.client.post(`/circles/${general.id}/messages`, { markdown: 'quick question' });
    expect(chat.status).toBe(201);
    expect(chat.body.message).toMatchObject({ circleId: general.id, conversationId: null, replyTo: null });
    const noChat = (await ann.client.post('/circles', { name: 'Quiet', visibility: 'public' })).body.circle;
    const refused = await ann.client.post(`/circles/${noChat.id}/messages`, { markdown: 'hello?' });
    expect(refused.status).toBe(409);
    expect(refused.body._tag).toBe('PlatformApiConflictError');
  });

  it('files a chat message with its replies into a conversation of the same circle, once', async () => {
    const chat = (await bob.client.post(`/circles/${general.id}/messages`, { markdown: 'file me' })).body.message;
    const reply = (await ann.client.post(`/messages/${chat.id}/replies`, { markdown: 'agreed' })).body.message;
    expect(reply.conversationId).toBeNull();
    const conv = (await ann.client.post(`/circles/${general.id}/conversations`, { title: 'Filed things' })).body.conversation;
    stack.clock.advance(5);
    const filed = await ann.client.post(`/messages/${chat.id}/file`, { conversationId: conv.id });
    expect(filed.status).toBe(200);
    expect(filed.body.message).toMatchObject({ id: chat.id, conversationId: conv.id, filedAt: new Date(stack.clock.now()).toISOString() });
    expect((await ann.client.get(`/messages/${reply.id}`)).body.message.conversationId).toBe(conv.id);
    expect((await ann.client.get(`/conversations/${conv.id}/messages`)).body.items.map((m: { id: string }) => m.id)).toEqual([chat.id]);
    expect((await ann.client.get(`/circles/${general.id}/messages`)).body.items.map((m: { id: string }) => m.id)).not.toContain(chat.id);
    expect((await ann.client.post(`/messages/${chat.id}/file`, { conversationId: conv.id })).status).toBe(409);
  });

  it('refuses filing into a conversation of another circle, and filing replies', async () => {
    const chat = (await ann.client.post(`/circles/${general.id}/messages`, { markdown: 'misfile' })).body.message;
    const elsewhere = (await ann.client.post(`/circles/${secret.id}/conversations`, { title: 'Elsewhere' })).body.conversation;
    const res = await ann.client.post(`/messages/${chat.id}/file`, { conversationId: elsewhere.id });
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toEqual(['conversationId']);
    const reply = (await ann.client.post(`/messages/${chat.id}/replies`, { markdown: 'r' })).body.message;
    const conv = (await ann.client.post(`/circles/${general.id}/conversations`, { title: 'Here' })).body.conversation;
    expect((await ann.client.post(`/messages/${reply.id}/file`, { conversationId: conv.id })).status).toBe(409);
  });
});

describe('direct messages', () => {
  it('sends direct messages between two members, visible to them only', async () => {
    const sent = await ann.client.post('/direct-messages', { to: bob.member.id, markdown: 'hi Bob' });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({ circleId: null, conversationId: null, recipientId: bob.member.id, author: { memberId: ann.member.id } });
    stack.clock.advance(1);
    const back = await bob.client.post('/direct-messages', { to: ann.member.id, content: doc('hi Ann') });
    expect(back.body.message.recipientId).toBe(ann.member.id);
    const annView = await ann.client.get(`/direct-messages/${bob.member.id}`);
    const bobView = await bob.client.get(`/direct-messages/${ann.member.id}`);
    expect(annView.body.items.map((m: { id: string }) => m.id)).toEqual([sent.body.message.id, back.body.message.id]);
    expect(bobView.body.items).toEqual(annView.body.items);
    expect((await eve.client.get(`/messages/${sent.body.message.id}`)).status).toBe(404);
    expect((await eve.client.get(`/direct-messages/${ann.member.id}`)).body.items).toEqual([]);
    const reply = await bob.client.post(`/messages/${sent.body.message.id}/replies`, { markdown: 'threaded' });
    expect(reply.body.message).toMatchObject({ replyTo: sent.body.message.id, circleId: null, recipientId: ann.member.id });
  });

  it('refuses messages to oneself and to unknown members', async () => {
    const self = await ann.client.post('/direct-messages', { to: ann.member.id, markdown: 'me' });
    expect(self.status).toBe(400);
    expect(self.body.issues[0].path).toEqual(['to']);
    expect((await ann.client.post('/direct-messages', { to: 'mem_nobody', markdown: 'x' })).status).toBe(404);
  });
});
