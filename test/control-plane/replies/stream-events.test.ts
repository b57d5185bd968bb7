/**
 * `POST /v0/streams/events` over real HTTP, row by row of the spec: the stream created by the
 * first event (named after the app, with its icon), conversations started and joined by
 * `threadKey`, `title` only when starting, `persona`, `idempotencyKey` (24 hours, concurrent
 * resends), exactly one of `content` / `markdown` and every field bound at its limit and one past
 * it, the invalid-payload reasons, reach (404 even when revoked), revocation (410), 60 events a
 * minute per stream on the injected clock, credentials, events, and that refusals write nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IMAGE_HOST, startImageServer, type ImageServer } from '../../fixtures/assets/image-server.ts';
import { png } from '../../fixtures/assets/images.ts';
import { doc, startAppMessagesWorld, type AppMessagesWorld } from './setup.ts';

let w: AppMessagesWorld;
let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
  w = await startAppMessagesWorld({ env: { IMAGE_COPY_TEST_LOOPBACK_HOSTS: IMAGE_HOST } });
  await w.stack.db.query(`update app_versions set manifest = manifest || '{"icon":"ast_deploys"}'::jsonb where app_id = $1`, [w.poster.id]);
});
afterAll(async () => {
  await w?.stop();
  await images?.close();
});
// Every test starts with a fresh rate-limit window.
beforeEach(() => {
  w.stack.clock.advance(61_000);
});

const post = async (body: Record<string, unknown>) => (await w.app()).post('/streams/events', { circleId: w.chatCircle, ...body });
/** A new circle (public, no chat) each time, so the stream and its rate limit start fresh. */
async function freshCircle(): Promise<string> {
  const res = await w.ws.client.post('/circles', { name: `Feed ${Math.random().toString(36).slice(2, 8)}`, visibility: 'public' });
  return res.body.circle.id;
}
const messagesOf = async (conversationId: string) => (await w.ws.client.get(`/conversations/${conversationId}/messages`)).body.items;
const conversation = async (id: string) => (await w.ws.client.get(`/conversations/${id}`)).body.conversation;

describe('the stream and its conversations', () => {
  it('the first event creates the stream (app name, icon) and an app conversation; members read it with the app as author', async () => {
    const circleId = await freshCircle();
    const res = await post({ circleId, markdown: 'Deployed **v42**', title: 'Deploy v42' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      conversationId: expect.stringMatching(/^cnv_/), created: true,
      url: `${w.stack.config.publicUrl}/console/circles/${circleId}/conversations/${res.body.conversationId}`,
    });
    const { rows } = await w.stack.db.query<any>('select name, icon, revoked_at from app_streams where circle_id = $1 and app_id = $2', [circleId, w.poster.id]);
    expect(rows).toEqual([{ name: 'App deploys', icon: 'ast_deploys', revoked_at: null }]);
    expect(await conversation(res.body.conversationId)).toMatchObject({ circleId, title: 'Deploy v42', createdBy: null });
    const [message] = await messagesOf(res.body.conversationId);
    expect(message).toMatchObject({ markdown: 'Deployed **v42**', content: null, author: { kind: 'app', appId: w.poster.id, name: 'App deploys' } });
    // A second event in the circle uses the same stream.
    expect((await post({ circleId, markdown: 'again' })).status).toBe(200);
    expect((await w.stack.db.query('select 1 from app_streams where circle_id = $1', [circleId])).rows).toHaveLength(1);
  });

  it('threadKey: the first event starts a conversation, later ones join it (created false, title ignored); other keys and no key start new ones', async () => {
    const circleId = await freshCircle();
    const first = await post({ circleId, markdown: 'Build 7 started', threadKey: 'build-7', title: 'Build 7' });
    // Members' listings order by time: the events happen a second apart.
    w.stack.clock.advance(1_000);
    const second = await post({ circleId, markdown: 'Build 7 passed', threadKey: 'build-7', title: 'Ignored' });
    expect(second.body).toMatchObject({ conversationId: first.body.conversationId, created: false });
    expect((await conversation(first.body.conversationId)).title).toBe('Build 7');
    expect((await messagesOf(first.body.conversationId)).map((m: any) => m.markdown)).toEqual(['Build 7 started', 'Build 7 passed']);
    const other = await post({ circleId, markdown: 'Build 8 started', threadKey: 'build-8' });
    expect(other.body.created).toBe(true);
    expect(other.body.conversationId).not.toBe(first.body.conversationId);
    const a = await post({ circleId, markdown: 'no key' });
    const b = await post({ circleId, markdown: 'no key' });
    expect(a.body.conversationId).not.toBe(b.body.conversationId);
  });

  it('a thread whose conversation was deleted starts over with the next event', async () => {
    const circleId = await freshCircle();
    const first = await post({ circleId, markdown: 'one', threadKey: 'gone' });
    await w.stack.db.query('delete from conversations where id = $1', [first.body.conversationId]);
    const again = await post({ circleId, markdown: 'two', threadKey: 'gone' });
    expect(again.body.created).toBe(true);
    expect(again.body.conversationId).not.toBe(first.body.conversationId);
  });

  it('without a title, the conversation is titled with the first line of the text, at most 120 characters', async () => {
    const short = await post({ content: { type: 'doc', content: [{ type: 'heading', content: [{ type: 'text', text: 'Outage resolved' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'details' }] }] } });
    expect((await conversation(short.body.conversationId)).title).toBe('Outage resolved');
    const long = await post({ markdown: `${'é'.repeat(130)}\nsecond line` });
    expect((await conversation(long.body.conversationId)).title).toBe(`${'é'.repeat(119)}…`);
  });

  it('persona overrides the name and icon members see for that event only (its avatar copied, served by us); events carry the persona name', async () => {
    const avatarUrl = images.put('/pager.png', { bytes: png(4, 4), contentType: 'image/png' });
    const res = await post({ markdown: 'Paged on-call', persona: { name: 'Pager', avatarUrl } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [message] = await messagesOf(res.body.conversationId);
    expect(message.author).toEqual({ kind: 'app', memberId: null, appId: w.poster.id, name: 'Pager', avatarUrl: expect.stringMatching(new RegExp(`^${w.stack.config.publicUrl}/assets/ast_[a-z2-7]{52}$`)) });
    const served = await w.stack.fetch(new URL(message.author.avatarUrl).pathname);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png(4, 4))).toBe(true);
    const heard = (await w.events(w.listener.installId)).find((e) => e.type === 'post.created' && e.payload.post.conversationId === res.body.conversationId);
    expect(heard!.payload.post.author).toEqual({ kind: 'app', id: w.poster.id, name: 'Pager' });
    const plain = await post({ markdown: 'no persona' });
    expect((await messagesOf(plain.body.conversationId))[0].author.name).toBe('App deploys');
  });
});

describe('idempotencyKey', () => {
  it('a resend within 24 hours answers the first answer and posts nothing; after 24 hours the key is new again', async () => {
    const first = await post({ markdown: 'Deploy 9', idempotencyKey: 'deploy-9' });
    expect(first.status).toBe(200);
    const before = { messages: await w.count('messages'), events: await w.count('outbox_events') };
    w.stack.clock.advance(23 * 3_600_000);
    const resend = await post({ markdown: 'Deploy 9 (different body)', idempotencyKey: 'deploy-9' });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual(first.body);
    expect({ messages: await w.count('messages'), events: await w.count('outbox_events') }).toEqual(before);
    w.stack.clock.advance(3_600_000 + 1);
    const later = await post({ markdown: 'Deploy 9', idempotencyKey: 'deploy-9' });
    expect(later.body.conversationId).not.toBe(first.body.conversationId);
    expect(await w.count('messages')).toBe(before.messages + 1);
  });

  it('two concurrent first uses of a key post once and answer the same', async () => {
    const api = await w.app();
    const before = await w.count('messages');
    const [a, b] = await Promise.all([1, 2].map(() => api.post('/streams/events', { circleId: w.chatCircle, markdown: 'once', idempotencyKey: 'race-1' })));
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(a!.body).toEqual(b!.body);
    expect(await w.count('messages')).toBe(before + 1);
  });

  it('keys belong to the install: another install\'s key of the same name posts', async () => {
    await w.stack.db.query(`update installs set approved_scopes = approved_scopes || '["replies:write"]'::jsonb where id = $1`, [w.listener.installId]);
    try {
      const mine = await post({ markdown: 'mine', idempotencyKey: 'shared' });
      const { token } = await w.stack.controlPlane.tokens.mint('install', { installId: w.listener.installId, appId: w.listener.id, workspaceId: w.ws.workspace.id });
      const theirs = await w.stack.v0(token).post('/streams/events', { circleId: w.chatCircle, markdown: 'theirs', idempotencyKey: 'shared' });
      expect(theirs.status).toBe(200);
      expect(theirs.body.conversationId).not.toBe(mine.body.conversationId);
    } finally {
      await w.stack.db.query(`update installs set approved_scopes = approved_scopes - 'replies:write' where id = $1`, [w.listener.installId]);
    }
  });
});

describe('request rules', () => {
  // Combining sequences count as one character each (as people see them) but two code units.
  const e = 'e\u0301';
  const ok = async (body: Record<string, unknown>, name: string) => {
    const res = await post(body);
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
  };
  const invalid = async (body: Record<string, unknown>, name: string, path?: unknown[]) => {
    const res = await post(body);
    expect(res.status, name).toBe(400);
    expect(res.body._tag, name).toBe('PlatformApiInvalidRequestError');
    if (path !== undefined) expect(res.body.issues[0].path, name).toEqual(path);
  };

  it('every field at its limit passes and one past it fails', async () => {
    await ok({ markdown: e.repeat(40_000) }, 'markdown 40,000');
    await invalid({ markdown: e.repeat(40_001) }, 'markdown 40,001', ['markdown']);
    await invalid({ markdown: '' }, 'markdown empty', ['markdown']);
    await ok({ markdown: 'x', title: e.repeat(300) }, 'title 300');
    await invalid({ markdown: 'x', title: e.repeat(301) }, 'title 301', ['title']);
    await ok({ markdown: 'x', threadKey: 'k'.repeat(200) }, 'threadKey 200');
    await invalid({ markdown: 'x', threadKey: 'k'.repeat(201) }, 'threadKey 201', ['threadKey']);
    await ok({ markdown: 'x', idempotencyKey: 'i'.repeat(200) }, 'idempotencyKey 200');
    await invalid({ markdown: 'x', idempotencyKey: 'i'.repeat(201) }, 'idempotencyKey 201', ['idempotencyKey']);
    await ok({ markdown: 'x', persona: { name: e.repeat(80) } }, 'persona name 80');
    await invalid({ markdown: 'x', persona: { name: e.repeat(81) } }, 'persona name 81', ['persona', 'name']);
    await invalid({ markdown: 'x', persona: { avatarUrl: 'http://cdn.example.com/a.png' } }, 'persona avatar http', ['persona', 'avatarUrl']);
    await invalid({ markdown: 'x', persona: { avatarUrl: images.put('/avatar.svg', { bytes: Buffer.from('<svg/>') }) } }, 'persona avatar not an image', ['persona', 'avatarUrl']);
    await invalid({ markdown: 'x', persona: { nickname: 'x' } }, 'persona unknown field', ['persona', 'nickname']);
    await invalid({ markdown: 'x', circleId: undefined }, 'no circle');
  });

  it('exactly one of content and markdown; unknown fields and malformed JSON are refused', async () => {
    await invalid({ markdown: 'x', content: doc('x') }, 'both');
    await invalid({}, 'neither');
    await invalid({ markdown: 'x', replyTo: 'msg_1' }, 'unknown field', ['replyTo']);
    const malformed = await (await w.app()).request('POST', '/streams/events', { rawBody: '{"circleId":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body._tag).toBe('PlatformApiInvalidRequestError');
  });

  it('content is judged as a document: invalid_document, unsupported_node (mentions, files, images), empty', async () => {
    const reason = async (body: Record<string, unknown>) => {
      const res = await post(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body._tag).toBe('PlatformAppStreamInvalidPayloadError');
      return res.body.reason;
    };
    expect(await reason({ content: { type: 'paragraph', content: [] } })).toBe('invalid_document');
    expect(await reason({ content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 5 }] }] } })).toBe('invalid_document');
    const mention = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'hi ' }, { type: 'mention', attrs: { kind: 'member', id: 'mem_1' } }] }] };
    expect(await reason({ content: mention })).toBe('unsupported_node');
    expect(await reason({ content: { type: 'doc', content: [{ type: 'image', attrs: { src: 'https://x.example.com/a.png' } }] } })).toBe('unsupported_node');
    expect(await reason({ content: { type: 'doc', content: [{ type: 'file', attrs: { id: 'ast_1' } }] } })).toBe('unsupported_node');
    expect(await reason({ content: { type: 'doc', content: [] } })).toBe('empty');
    expect(await reason({ content: { type: 'doc', content: [{ type: 'paragraph' }] } })).toBe('empty');
    expect(await reason({ markdown: '  \n ' })).toBe('empty');
    const unsupported = await post({ content: mention });
    expect(unsupported.body.path).toEqual(['content', 'content', 0, 'content', 1]);
    await ok({ content: { type: 'doc', content: [{ type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'ok', marks: [{ type: 'bold' }] }] }] }] }] } }, 'rich document');
  });

  it('refused requests write nothing', async () => {
    const tables = ['messages', 'conversations', 'app_streams', 'outbox_events', 'app_idempotency_keys'] as const;
    const snapshot = async () => Promise.all(tables.map((t) => w.count(t)));
    const before = await snapshot();
    const circleId = await freshCircle();
    const circlesOnly = await snapshot();
    expect(circlesOnly).toEqual(before);
    await post({ circleId, markdown: '', idempotencyKey: 'bad-1' });
    await post({ circleId, content: { type: 'doc', content: [] }, idempotencyKey: 'bad-2' });
    await post({ circleId: w.privateCircle, markdown: 'x', idempotencyKey: 'bad-3' });
    await w.stack.v0().post('/streams/events', { circleId, markdown: 'x' });
    expect(await snapshot()).toEqual(before);
  });
});

describe('reach and revocation', () => {
  it('a circle outside reach, unknown, of another workspace, or connected answers 404 with circleIds', async () => {
    const notFound = async (circleId: string) => {
      const res = await post({ circleId, markdown: 'x' });
      expect(res.status, circleId).toBe(404);
      expect(res.body).toMatchObject({ _tag: 'PlatformAppCircleNotFoundError', circleIds: [circleId] });
    };
    await notFound(w.privateCircle);
    await notFound('cir_nope');
    const elsewhere = await w.stack.createWorkspace({ name: 'Elsewhere' });
    await notFound((await elsewhere.client.post('/circles', { name: 'Theirs', visibility: 'public' })).body.circle.id);
    const connected = await freshCircle();
    await w.stack.db.query('update circles set connected = true where id = $1', [connected]);
    await notFound(connected);
    const ended = await freshCircle();
    await w.stack.db.query('update circles set connected = true, read_only = true where id = $1', [ended]);
    await notFound(ended);
  });

  it('an invited private circle is within reach', async () => {
    const invited = await w.ws.client.post('/circles', { name: 'Ops feed', visibility: 'private' });
    await w.ws.client.put(`/circles/${invited.body.circle.id}/app-invitations/${w.poster.id}`);
    expect((await post({ circleId: invited.body.circle.id, markdown: 'x' })).status).toBe(200);
  });

  it('a revoked stream answers 410 (and 404 when the circle also left reach); nothing is posted', async () => {
    const circleId = await freshCircle();
    expect((await post({ circleId, markdown: 'first' })).status).toBe(200);
    await w.stack.db.query('update app_streams set revoked_at = now() where circle_id = $1', [circleId]);
    const before = await w.count('messages');
    const revoked = await post({ circleId, markdown: 'second' });
    expect(revoked.status).toBe(410);
    expect(revoked.body._tag).toBe('PlatformAppStreamRevokedError');
    await w.stack.db.query('update circles set connected = true where id = $1', [circleId]);
    const gone = await post({ circleId, markdown: 'third' });
    expect(gone.status).toBe(404);
    expect(gone.body._tag).toBe('PlatformAppCircleNotFoundError');
    expect(await w.count('messages')).toBe(before);
  });
});

describe('rate limit', () => {
  it('60 events a minute per stream: the 61st answers 429 with retry-after; other streams and resends are not affected; the window slides', async () => {
    const circleId = await freshCircle();
    const api = await w.app();
    const send = (body: Record<string, unknown>) => api.post('/streams/events', { circleId, ...body });
    const first = await send({ markdown: 'event 0', idempotencyKey: 'rl-0' });
    expect(first.status).toBe(200);
    w.stack.clock.advance(30_000);
    for (let i = 1; i < 60; i++) expect((await send({ markdown: `event ${i}` })).status, `event ${i}`).toBe(200);
    const over = await send({ markdown: 'event 60' });
    expect(over.status).toBe(429);
    expect(over.body._tag).toBe('PlatformApiRateLimitExceededError');
    expect(over.headers.get('retry-after')).toBe('30');
    // A resend of an event already posted answers without counting.
    expect((await send({ markdown: 'event 0', idempotencyKey: 'rl-0' })).body).toEqual(first.body);
    // Another circle is another stream.
    expect((await api.post('/streams/events', { circleId: w.chatCircle, markdown: 'elsewhere' })).status).toBe(200);
    // The first event leaves the window after a minute.
    w.stack.clock.advance(30_000);
    expect((await send({ markdown: 'event 61' })).status).toBe(200);
    expect((await send({ markdown: 'event 62' })).status).toBe(429);
  });
});

describe('credentials and events', () => {
  it('no token 401; another kind of credential 401; missing replies:write 403', async () => {
    const body = { circleId: w.chatCircle, markdown: 'x' };
    const none = await w.stack.v0().post('/streams/events', body);
    expect(none.status).toBe(401);
    expect(none.body._tag).toBe('PlatformAppTokenMissingError');
    expect((await w.stack.v0(w.ws.apiKey).post('/streams/events', body)).body._tag).toBe('PlatformAppTokenInvalidError');
    const { token } = await w.stack.controlPlane.tokens.mint('install', { installId: w.listener.installId, appId: w.listener.id, workspaceId: w.ws.workspace.id });
    const scope = await w.stack.v0(token).post('/streams/events', body);
    expect(scope.status).toBe(403);
    expect(scope.body).toMatchObject({ _tag: 'PlatformAppScopeMissingError', scope: 'replies:write' });
  });

  it('a new conversation is post.created, a joined one reply.created (replyTo its first post), for other apps only', async () => {
    const mine = (await w.events(w.poster.installId)).length;
    const first = await post({ markdown: 'Incident opened', threadKey: 'inc-1' });
    w.stack.clock.advance(1_000);
    const second = await post({ markdown: 'Incident closed', threadKey: 'inc-1' });
    const events = (await w.events(w.listener.installId)).filter((e) => JSON.stringify(e.payload).includes(first.body.conversationId));
    expect(events.map((e) => e.type)).toEqual(['post.created', 'reply.created']);
    const [opened] = await messagesOf(first.body.conversationId);
    expect(events[0]!.payload.post).toMatchObject({ id: opened.id, text: 'Incident opened', author: { kind: 'app', id: w.poster.id } });
    expect(events[1]!.payload.reply).toMatchObject({ conversationId: second.body.conversationId, replyTo: opened.id, text: 'Incident closed' });
    expect((await w.events(w.poster.installId)).length).toBe(mine);
  });
});
