/**
 * `POST /v0/replies` over real HTTP: the three targets and their answers, the app as author in the
 * client API, reach (targets outside it answer as if absent, each with its tag), the request rules
 * (one target, a valid document, strict body), credentials, and the lifecycle events: other apps
 * within reach hear `post.created` / `reply.created` (author `app`), the posting app does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doc, startAppMessagesWorld, type AppMessagesWorld } from './setup.ts';

let w: AppMessagesWorld;
beforeAll(async () => {
  w = await startAppMessagesWorld();
});
afterAll(async () => {
  await w?.stop();
});

const appAuthor = () => ({ kind: 'app', memberId: null, appId: w.poster.id, name: 'App deploys' });

describe('targets', () => {
  it('conversationId: a top-level message of the conversation, shown to members with the app as author', async () => {
    const res = await (await w.app()).post('/replies', { content: doc('Build 42 is green'), conversationId: w.conversationId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^msg_/), circleId: w.chatCircle, conversationId: w.conversationId });
    const listed = await w.ws.client.get(`/conversations/${w.conversationId}/messages`);
    const message = listed.body.items.find((m: any) => m.id === res.body.id);
    expect(message).toMatchObject({ author: appAuthor(), content: doc('Build 42 is green'), markdown: null, replyTo: null, blockId: null });
    expect((await w.ws.client.get(`/messages/${res.body.id}`)).body.message.author).toEqual(appAuthor());
  });

  it('replyTo: a reply in the thread of the message\'s root, in its circle and conversation', async () => {
    const root = await w.ws.client.post(`/conversations/${w.conversationId}/messages`, { markdown: 'Who deploys?' });
    const child = await w.ws.client.post(`/messages/${root.body.message.id}/replies`, { markdown: 'Not me' });
    const res = await (await w.app()).post('/replies', { content: doc('I do'), replyTo: child.body.message.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ circleId: w.chatCircle, conversationId: w.conversationId });
    const thread = await w.ws.client.get(`/messages/${root.body.message.id}/replies`);
    expect(thread.body.items.find((m: any) => m.id === res.body.id)).toMatchObject({ replyTo: root.body.message.id, author: appAuthor() });
  });

  it('circleId: a chat message (conversationId null); a circle without chat answers 409', async () => {
    const res = await (await w.app()).post('/replies', { content: doc('Morning'), circleId: w.chatCircle });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ circleId: w.chatCircle, conversationId: null });
    const chat = await w.ws.client.get(`/circles/${w.chatCircle}/messages`);
    expect(chat.body.items.find((m: any) => m.id === res.body.id)).toMatchObject({ author: appAuthor(), conversationId: null });
    const quiet = await (await w.app()).post('/replies', { content: doc('Morning'), circleId: w.quietCircle });
    expect(quiet.status).toBe(409);
    expect(quiet.body._tag).toBe('PlatformApiConflictError');
  });

  it('a reply to a chat message stays unfiled: conversationId null', async () => {
    const chat = await w.ws.client.post(`/circles/${w.chatCircle}/messages`, { markdown: 'Lunch?' });
    const res = await (await w.app()).post('/replies', { content: doc('Yes'), replyTo: chat.body.message.id });
    expect(res.status).toBe(201);
    expect(res.body.conversationId).toBeNull();
  });
});

describe('reach', () => {
  it('targets out of reach answer as if absent, each with its own tag', async () => {
    const api = await w.app();
    const circle = await api.post('/replies', { content: doc('x'), circleId: w.privateCircle });
    expect(circle.status).toBe(404);
    expect(circle.body).toMatchObject({ _tag: 'PlatformAppCircleNotFoundError', circleIds: [w.privateCircle] });
    const hidden = await w.ws.client.post(`/circles/${w.privateCircle}/conversations`, { title: 'Private plans' });
    const conversation = await api.post('/replies', { content: doc('x'), conversationId: hidden.body.conversation.id });
    expect(conversation.status).toBe(404);
    expect(conversation.body._tag).toBe('PlatformApiConversationNotFoundError');
    const post = await w.ws.client.post(`/conversations/${hidden.body.conversation.id}/messages`, { markdown: 'secret' });
    const reply = await api.post('/replies', { content: doc('x'), replyTo: post.body.message.id });
    expect(reply.status).toBe(404);
    expect(reply.body._tag).toBe('PlatformApiReplyNotFoundError');
    expect((await api.post('/replies', { content: doc('x'), replyTo: 'msg_nope' })).body._tag).toBe('PlatformApiReplyNotFoundError');
    expect((await api.post('/replies', { content: doc('x'), conversationId: 'cnv_nope' })).body._tag).toBe('PlatformApiConversationNotFoundError');
  });

  it('a direct message is never a target', async () => {
    const other = await w.stack.addMember(w.ws.apiKey, { role: 'member', name: 'Dee' });
    const dm = await w.ws.client.post('/direct-messages', { to: other.member.id, markdown: 'psst' });
    expect(dm.status).toBe(201);
    const res = await (await w.app()).post('/replies', { content: doc('x'), replyTo: dm.body.message.id });
    expect(res.status).toBe(404);
    expect(res.body._tag).toBe('PlatformApiReplyNotFoundError');
  });

  it('a private circle the app was invited to is within reach', async () => {
    const invited = await w.ws.client.post('/circles', { name: 'Invited', visibility: 'private', chat: true });
    const circleId = invited.body.circle.id;
    expect((await w.ws.client.put(`/circles/${circleId}/app-invitations/${w.poster.id}`)).status).toBeLessThan(300);
    const res = await (await w.app()).post('/replies', { content: doc('Hello'), circleId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('request rules', () => {
  it('exactly one target; a valid document; no unknown fields; malformed JSON; nothing is written', async () => {
    const api = await w.app();
    const before = { messages: await w.count('messages'), events: await w.count('outbox_events') };
    const cases: Array<[unknown, string]> = [
      [{ content: doc('x') }, 'no target'],
      [{ content: doc('x'), circleId: w.chatCircle, conversationId: w.conversationId }, 'two targets'],
      [{ circleId: w.chatCircle }, 'no content'],
      [{ content: doc('x'), circleId: w.chatCircle, markdown: 'x' }, 'unknown field'],
      [{ content: { type: 'doc', content: [] }, circleId: w.chatCircle }, 'empty document'],
      [{ content: { type: 'paragraph', content: [] }, circleId: w.chatCircle }, 'not a doc'],
      [{ content: { type: 'doc', content: [{ type: 'paragraph', bogus: 1 }] }, circleId: w.chatCircle }, 'unknown node field'],
    ];
    for (const [body, name] of cases) {
      const res = await api.post('/replies', body);
      expect(res.status, name).toBe(400);
      expect(res.body._tag, name).toBe('PlatformApiInvalidRequestError');
      expect(res.body.issues.length, name).toBeGreaterThan(0);
    }
    const nodeIssue = await api.post('/replies', { content: { type: 'doc', content: [{ type: 'paragraph', bogus: 1 }] }, circleId: w.chatCircle });
    expect(nodeIssue.body.issues[0].path).toEqual(['content', 'content', 0, 'bogus']);
    const malformed = await api.request('POST', '/replies', { rawBody: '{"content":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body._tag).toBe('PlatformApiInvalidRequestError');
    expect({ messages: await w.count('messages'), events: await w.count('outbox_events') }).toEqual(before);
  });
});

describe('credentials', () => {
  it('no token 401; another kind of credential 401; a missing scope 403; an uninstalled install 403', async () => {
    const body = { content: doc('x'), circleId: w.chatCircle };
    const none = await w.stack.v0().post('/replies', body);
    expect(none.status).toBe(401);
    expect(none.body._tag).toBe('PlatformAppTokenMissingError');
    const member = await w.stack.v0(w.ws.apiKey).post('/replies', body);
    expect(member.status).toBe(401);
    expect(member.body._tag).toBe('PlatformAppTokenInvalidError');
    const interaction = await w.stack.controlPlane.tokens.mint('interaction', {
      installId: w.poster.installId, appId: w.poster.id, workspaceId: w.ws.workspace.id, blockId: 'blk_1', invocationId: null,
    });
    expect((await w.stack.v0(interaction.token).post('/replies', body)).status).toBe(401);
    const { token } = await w.stack.controlPlane.tokens.mint('install', { installId: w.listener.installId, appId: w.listener.id, workspaceId: w.ws.workspace.id });
    const scope = await w.stack.v0(token).post('/replies', body);
    expect(scope.status).toBe(403);
    expect(scope.body).toMatchObject({ _tag: 'PlatformAppScopeMissingError', scope: 'replies:write' });
    const api = await w.app();
    await w.stack.db.query(`update installs set status = 'uninstalled' where id = $1`, [w.poster.installId]);
    try {
      const revoked = await api.post('/replies', body);
      expect(revoked.status).toBe(403);
      expect(revoked.body._tag).toBe('PlatformAppInstallRevokedError');
    } finally {
      await w.stack.db.query(`update installs set status = 'active' where id = $1`, [w.poster.installId]);
    }
  });
});

describe('lifecycle events', () => {
  it('a chat message: post.created to other apps within reach, author app, no actor; none to the posting app', async () => {
    const mine = (await w.events(w.poster.installId)).length;
    const res = await (await w.app()).post('/replies', { content: doc('Deployed, see https://tracker.example.com/acme/issues/7 @tracker'), circleId: w.chatCircle });
    expect(res.status).toBe(201);
    const heard = (await w.events(w.listener.installId)).filter((e) => JSON.stringify(e.payload).includes(res.body.id));
    expect(heard.map((e) => e.type).sort()).toEqual(['app.mentioned', 'post.created', 'reference.created']);
    const post = heard.find((e) => e.type === 'post.created')!;
    expect(post.actor).toBeNull();
    expect(post.payload.post).toMatchObject({
      id: res.body.id, circleId: w.chatCircle, conversationId: null, author: { kind: 'app', id: w.poster.id, name: 'App deploys' }, version: 1,
    });
    expect(heard.find((e) => e.type === 'reference.created')!.payload.reference).toMatchObject({ kind: 'issue', url: 'https://tracker.example.com/acme/issues/7', params: { org: 'acme', number: '7' } });
    expect((await w.events(w.poster.installId)).length).toBe(mine);
  });

  it('a thread reply and a later top-level message are reply.created with replyTo the root / the first post', async () => {
    const conversation = await w.ws.client.post(`/circles/${w.chatCircle}/conversations`, { title: 'Release' });
    const first = await w.ws.client.post(`/conversations/${conversation.body.conversation.id}/messages`, { markdown: 'Release at 5' });
    const api = await w.app();
    const later = await api.post('/replies', { content: doc('Ready'), conversationId: conversation.body.conversation.id });
    const threaded = await api.post('/replies', { content: doc('On it'), replyTo: first.body.message.id });
    const events = await w.events(w.listener.installId);
    const of = (id: string) => events.find((e) => e.type === 'reply.created' && e.payload.reply.id === id)!;
    expect(of(later.body.id).payload.reply).toMatchObject({ replyTo: first.body.message.id, author: { kind: 'app' } });
    expect(of(threaded.body.id).payload.reply).toMatchObject({ replyTo: first.body.message.id, conversationId: conversation.body.conversation.id });
    // The first message an app posts in an empty conversation is its post.
    const empty = await w.ws.client.post(`/circles/${w.chatCircle}/conversations`, { title: 'Empty' });
    const opener = await api.post('/replies', { content: doc('First!'), conversationId: empty.body.conversation.id });
    expect((await w.events(w.listener.installId)).some((e) => e.type === 'post.created' && e.payload.post.id === opener.body.id)).toBe(true);
  });

  it('apps that do not reach the circle hear nothing', async () => {
    const invited = await w.ws.client.post('/circles', { name: 'Ops', visibility: 'private', chat: true });
    await w.ws.client.put(`/circles/${invited.body.circle.id}/app-invitations/${w.poster.id}`);
    const res = await (await w.app()).post('/replies', { content: doc('quiet news'), circleId: invited.body.circle.id });
    expect(res.status).toBe(201);
    expect((await w.events(w.listener.installId)).some((e) => JSON.stringify(e.payload).includes(res.body.id))).toBe(false);
  });
});

describe('OpenAPI', () => {
  it('documents POST /replies and POST /streams/events', async () => {
    const document = (await (await w.stack.fetch('/v0/openapi.json')).json()) as any;
    expect(document.paths['/replies'].post.operationId).toBe('postReply');
    expect(Object.keys(document.paths['/replies'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '409']));
    expect(document.paths['/streams/events'].post.operationId).toBe('postStreamEvent');
    expect(Object.keys(document.paths['/streams/events'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '410', '429']));
  });
});
