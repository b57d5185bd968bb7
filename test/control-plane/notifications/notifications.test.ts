/**
 * `POST /v0/notifications` over real HTTP, row by row: the field rules at their boundaries (text
 * counted as people see it, `https://` links only, strict bodies), every credential case, the
 * recipient rule (a member outside the install's workspace, or one a development install may not
 * notify, answers 404 as if absent), 60 a minute per app, and the member's inbox
 * (`GET /client/v1/notifications`, newest first, in pages). A refused request writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../helpers/stack.ts';
import { basic } from '../credentials/fixtures.ts';
import { startInboxWorld, type InboxWorld, type Installed } from './setup.ts';

let w: InboxWorld;
let app: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  app = await w.installApp(['notifications:write'], 'Reminders');
});
afterAll(async () => {
  await w?.stop();
});

/** A new window of the per-app limit, so earlier tests do not count. */
const nextWindow = () => w.stack.clock.advance(61_000);
const send = async (body: unknown, on: Installed = app) => (await on.api()).post('/notifications', body);
const inbox = async (client = w.member.client) => {
  const res = await client.get('/notifications');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as any[];
};
/** Expects the refusal and that nothing was written. */
async function refused(call: () => Promise<ApiResponse>, status: number, tag: string): Promise<ApiResponse> {
  const before = await w.count('notifications');
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body._tag).toBe(tag);
  expect(await w.count('notifications')).toBe(before);
  return res;
}

// One grapheme of two code points (thumbs up, skin tone): counts as one character.
const G = '\u{1F44D}\u{1F3FD}';

describe('sending', () => {
  it('answers 201 { id } and the member finds it in the inbox, credited to the app', async () => {
    nextWindow();
    const res = await send({ memberId: w.member.id, text: 'Your report is ready', url: 'https://reports.example.com/42' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^ntf_/) });
    const [first] = await inbox();
    expect(first).toEqual({
      id: res.body.id, text: 'Your report is ready', url: 'https://reports.example.com/42', blockId: null,
      app: { id: app.appId, name: 'Reminders' }, createdAt: new Date(w.stack.clock.now()).toISOString(), readAt: null,
    });
    // Only the recipient sees it.
    expect((await inbox(w.owner.client)).map((n) => n.id)).not.toContain(res.body.id);
  });

  it('the link is optional', async () => {
    const res = await send({ memberId: w.member.id, text: 'No link' });
    expect(res.status).toBe(201);
    expect((await inbox()).find((n) => n.id === res.body.id)).toMatchObject({ text: 'No link', url: null });
  });
});

describe('field rules', () => {
  const url2048 = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
  const accepted: Array<[string, Record<string, unknown>]> = [
    ['text of 1 character', { text: 'x' }],
    ['text of 280 characters as people see them (560 code points)', { text: G.repeat(280) }],
    ['an https:// url of 2,048 characters', { text: 'x', url: url2048 }],
  ];
  for (const [name, fields] of accepted) {
    it(`accepts ${name}`, async () => {
      nextWindow();
      const res = await send({ memberId: w.member.id, ...fields });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    });
  }

  // Bodies are built with a real member, so the field is the only fault.
  const rejected: Array<[string, (memberId: string) => unknown, Array<string | number>]> = [
    ['empty text', (m) => ({ memberId: m, text: '' }), ['text']],
    ['text of 281 characters as people see them', (m) => ({ memberId: m, text: G.repeat(281) }), ['text']],
    ['text that is not a string', (m) => ({ memberId: m, text: 42 }), ['text']],
    ['no text', (m) => ({ memberId: m }), ['text']],
    ['no memberId', () => ({ text: 'x' }), ['memberId']],
    ['an empty memberId', () => ({ memberId: '', text: 'x' }), ['memberId']],
    ['an http:// url', (m) => ({ memberId: m, text: 'x', url: 'http://example.com/a' }), ['url']],
    ['a url that is not a URL', (m) => ({ memberId: m, text: 'x', url: 'example.com/a' }), ['url']],
    ['a javascript: url', (m) => ({ memberId: m, text: 'x', url: 'javascript:alert(1)' }), ['url']],
    ['an https:// url of 2,049 characters', (m) => ({ memberId: m, text: 'x', url: `${url2048}a` }), ['url']],
    ['an unknown field', (m) => ({ memberId: m, text: 'x', blockId: 'blk_1' }), ['blockId']],
    ['an array body', (m) => [{ memberId: m, text: 'x' }], []],
  ];
  for (const [name, body, path] of rejected) {
    it(`refuses ${name} with 400 PlatformApiInvalidRequestError at ${JSON.stringify(path)}`, async () => {
      const res = await refused(() => send(body(w.member.id)), 400, 'PlatformApiInvalidRequestError');
      expect(res.body.issues.map((i: { path: unknown }) => i.path)).toContainEqual(path);
    });
  }

  it('refuses malformed JSON', async () => {
    const api = await app.api();
    await refused(() => api.request('POST', '/notifications', { rawBody: '{"memberId": "x", "text": ', headers: { 'content-type': 'application/json' } }), 400, 'PlatformApiInvalidRequestError');
  });
});

describe('credentials', () => {
  const body = () => ({ memberId: w.member.id, text: 'Hello' });
  it('no credential: 401 PlatformAppTokenMissingError', async () => {
    await refused(() => w.stack.v0().post('/notifications', body()), 401, 'PlatformAppTokenMissingError');
  });
  it('a credential of the wrong kind (member API key, interaction token, client credentials, garbage): 401 PlatformAppTokenInvalidError', async () => {
    const interaction = (await w.stack.controlPlane.tokens.mint('interaction', { installId: app.installId, appId: app.appId, workspaceId: app.workspaceId, blockId: 'blk_1', invocationId: null })).token;
    for (const credential of [`Bearer ${w.owner.apiKey}`, `Bearer ${interaction}`, basic(app.clientId, app.clientSecret), 'Bearer platapp_nope']) {
      await refused(() => w.stack.v0().request('POST', '/notifications', { body: body(), headers: { authorization: credential } }), 401, 'PlatformAppTokenInvalidError');
    }
  });
  it('an install without notifications:write: 403 PlatformAppScopeMissingError naming the scope', async () => {
    const other = await w.installApp(['memories:write']);
    const res = await refused(() => send(body(), other), 403, 'PlatformAppScopeMissingError');
    expect(res.body.scope).toBe('notifications:write');
  });
  it('an uninstalled install: 403 PlatformAppInstallRevokedError', async () => {
    const gone = await w.installApp(['notifications:write']);
    const token = await gone.token();
    expect((await w.owner.client.delete(`/installs/${gone.installId}`)).status).toBe(204);
    await refused(() => w.stack.v0(token).post('/notifications', body()), 403, 'PlatformAppInstallRevokedError');
  });
});

describe('recipients (reach for one member)', () => {
  const notFound = async (memberId: string, on: Installed = app) => {
    const res = await refused(() => send({ memberId, text: 'Hello' }, on), 404, 'PlatformApiNotFoundError');
    expect(res.body.path).toEqual(['memberId']);
    return res.body;
  };

  it('a member of another workspace answers exactly as a member that does not exist', async () => {
    nextWindow();
    const foreign = await notFound(w.foreign.owner.id);
    const absent = await notFound('mem_doesnotexist');
    expect(foreign).toEqual(absent);
  });

  it('a workspace install reaches every member of its workspace (owner and member alike)', async () => {
    for (const memberId of [w.owner.id, w.member.id, w.developer.id]) expect((await send({ memberId, text: 'Hi' })).status).toBe(201);
  });

  it('a development install reaches only its developer; anyone else answers as if absent', async () => {
    const dev = await w.devApp(['notifications:write']);
    const res = await send({ memberId: w.developer.id, text: 'From my build' }, dev);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await inbox(w.developer.client))[0]).toMatchObject({ id: res.body.id, app: { id: dev.appId, name: 'Dev helper' } });
    expect(await notFound(w.member.id, dev)).toEqual(await notFound('mem_doesnotexist', dev));
  });

  it('a refused recipient does not count toward the limit', async () => {
    nextWindow();
    for (let i = 0; i < 5; i++) await notFound('mem_doesnotexist');
    const api = await app.api();
    for (let i = 0; i < 60; i++) expect((await api.post('/notifications', { memberId: w.member.id, text: `n${i}` })).status).toBe(201);
    expect((await api.post('/notifications', { memberId: w.member.id, text: 'one too many' })).status).toBe(429);
  });
});

describe('rate limit: 60 a minute per app', () => {
  it('the 61st within a minute is 429 with retry-after and writes nothing; the window slides on the injected clock', async () => {
    nextWindow();
    const api = await app.api();
    for (let i = 0; i < 60; i++) {
      const res = await api.post('/notifications', { memberId: w.member.id, text: `n${i}` });
      expect(res.status, `request ${i}`).toBe(201);
      if (i === 29) w.stack.clock.advance(30_000);
    }
    const over = await refused(() => api.post('/notifications', { memberId: w.member.id, text: 'over' }), 429, 'PlatformApiRateLimitExceededError');
    expect(Number(over.headers.get('retry-after'))).toBe(30);
    // Another app has a budget of its own.
    const other = await w.installApp(['notifications:write']);
    expect((await send({ memberId: w.member.id, text: 'other app' }, other)).status).toBe(201);
    // The first 30 leave the window after a minute: 30 more fit, not 31.
    w.stack.clock.advance(30_000);
    for (let i = 0; i < 30; i++) expect((await api.post('/notifications', { memberId: w.member.id, text: `m${i}` })).status).toBe(201);
    expect((await api.post('/notifications', { memberId: w.member.id, text: 'over' })).status).toBe(429);
  });
});

describe('the inbox (GET /client/v1/notifications)', () => {
  it('lists newest first in pages, also within one instant', async () => {
    const reader = await w.stack.addMember(w.ws.apiKey, { role: 'member', name: 'Rae Reader' });
    nextWindow();
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await send({ memberId: reader.member.id, text: `n${i}` });
      sent.push(res.body.id);
      // Two pairs share an instant.
      if (i % 2 === 1) w.stack.clock.advance(1_000);
    }
    const first = await reader.client.get('/notifications?limit=2');
    expect(first.body.items.map((n: any) => n.text)).toEqual(['n4', 'n3']);
    const second = await reader.client.get(`/notifications?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((n: any) => n.text)).toEqual(['n2', 'n1']);
    const third = await reader.client.get(`/notifications?limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body).toEqual({ items: [expect.objectContaining({ text: 'n0', id: sent[0] })], nextCursor: null, unreadCount: 5 });
  });

  it('refuses a cursor it did not issue, and needs a member API key', async () => {
    const forged = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'ntf_x'])).toString('base64url');
    for (const cursor of [forged, 'garbage']) {
      const res = await w.member.client.get(`/notifications?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
    expect((await w.stack.client().get('/notifications')).status).toBe(401);
    expect((await w.stack.client(await app.token()).get('/notifications')).status).toBe(401);
  });
});
