/**
 * `POST /v0/memories` over real HTTP: the field rules at their boundaries (characters as people see
 * them, strict bodies), every credential case, 60 a minute per install on the injected clock, and
 * the members' list (`GET /client/v1/memories`): a workspace install's memories for every member,
 * a development install's for its developer only. A refused request writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../../helpers/stack.ts';
import { basic } from '../credentials/fixtures.ts';
import { startInboxWorld, type InboxWorld, type Installed } from '../notifications/setup.ts';

let w: InboxWorld;
let app: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  app = await w.installApp(['memories:write'], 'Scribe');
});
afterAll(async () => {
  await w?.stop();
});

const nextWindow = () => w.stack.clock.advance(61_000);
const save = async (body: unknown, on: Installed = app) => (await on.api()).post('/memories', body);
const list = async (client: ApiClient, query = '') => {
  const res = await client.get(`/memories${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
async function refused(call: () => Promise<ApiResponse>, status: number, tag: string): Promise<ApiResponse> {
  const before = await w.count('memories');
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body._tag).toBe(tag);
  expect(await w.count('memories')).toBe(before);
  return res;
}

// One grapheme of two code points (thumbs up, skin tone).
const G = '\u{1F44D}\u{1F3FD}';

describe('saving', () => {
  it('answers 201 { id, createdAt }; every member of the workspace sees it, credited to the app', async () => {
    nextWindow();
    const res = await save({ title: 'Release day', text: 'We ship on Thursdays.' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const createdAt = new Date(w.stack.clock.now()).toISOString();
    expect(res.body).toEqual({ id: expect.stringMatching(/^memo_/), createdAt });
    for (const client of [w.member.client, w.owner.client, w.developer.client]) {
      expect((await list(client)).items[0]).toEqual({
        id: res.body.id, title: 'Release day', text: 'We ship on Thursdays.', app: { id: app.appId, name: 'Scribe' }, createdAt, editedAt: null, editedBy: null,
      });
    }
    // Another workspace does not.
    expect((await list(w.foreign.client)).items.map((m: any) => m.id)).not.toContain(res.body.id);
  });

  it('the title is optional; an empty title is no title', async () => {
    const none = await save({ text: 'No title' });
    const empty = await save({ text: 'Empty title', title: '' });
    const items = (await list(w.member.client)).items;
    for (const id of [none.body.id, empty.body.id]) expect(items.find((m: any) => m.id === id).title).toBeNull();
  });
});

describe('field rules', () => {
  const accepted: Array<[string, Record<string, unknown>]> = [
    ['text of 1 character', { text: 'x' }],
    ['text of 4,000 characters as people see them (8,000 code points)', { text: G.repeat(4_000) }],
    ['a title of 200 characters as people see them', { text: 'x', title: G.repeat(200) }],
  ];
  for (const [name, body] of accepted) {
    it(`accepts ${name}`, async () => {
      nextWindow();
      const res = await save(body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    });
  }

  const rejected: Array<[string, unknown, Array<string | number>]> = [
    ['empty text', { text: '' }, ['text']],
    ['text of 4,001 characters as people see them', { text: G.repeat(4_001) }, ['text']],
    ['no text', { title: 'x' }, ['text']],
    ['text that is not a string', { text: ['x'] }, ['text']],
    ['a title of 201 characters as people see them', { text: 'x', title: G.repeat(201) }, ['title']],
    ['a null title', { text: 'x', title: null }, ['title']],
    ['an unknown field', { text: 'x', circleId: 'cir_1' }, ['circleId']],
    ['a string body', 'remember this', []],
  ];
  for (const [name, body, path] of rejected) {
    it(`refuses ${name} with 400 PlatformApiInvalidRequestError at ${JSON.stringify(path)}`, async () => {
      const res = await refused(() => save(body), 400, 'PlatformApiInvalidRequestError');
      expect(res.body.issues.map((i: { path: unknown }) => i.path)).toContainEqual(path);
    });
  }

  it('refuses malformed JSON', async () => {
    const api = await app.api();
    await refused(() => api.request('POST', '/memories', { rawBody: '{"text": "x"', headers: { 'content-type': 'application/json' } }), 400, 'PlatformApiInvalidRequestError');
  });

  it('refuses a body past its byte cap unread (413), writing nothing', async () => {
    // 4,000 characters each of 64 combining marks: few characters, many bytes.
    const heavy = `a${'\u0301'.repeat(63)}`.repeat(1_000);
    await refused(() => save({ text: heavy }), 413, 'PlatformApiPayloadTooLargeError');
  });
});

describe('credentials', () => {
  const body = { text: 'Remember' };
  it('no credential: 401 PlatformAppTokenMissingError', async () => {
    await refused(() => w.stack.v0().post('/memories', body), 401, 'PlatformAppTokenMissingError');
  });
  it('a credential of the wrong kind (member API key, interaction token, client credentials, garbage): 401 PlatformAppTokenInvalidError', async () => {
    const interaction = (await w.stack.controlPlane.tokens.mint('interaction', { installId: app.installId, appId: app.appId, workspaceId: app.workspaceId, blockId: 'blk_1', invocationId: null })).token;
    for (const credential of [`Bearer ${w.owner.apiKey}`, `Bearer ${interaction}`, basic(app.clientId, app.clientSecret), 'Bearer platapp_nope']) {
      await refused(() => w.stack.v0().request('POST', '/memories', { body, headers: { authorization: credential } }), 401, 'PlatformAppTokenInvalidError');
    }
  });
  it('an install without memories:write: 403 PlatformAppScopeMissingError naming the scope', async () => {
    const other = await w.installApp(['notifications:write']);
    const res = await refused(() => save(body, other), 403, 'PlatformAppScopeMissingError');
    expect(res.body.scope).toBe('memories:write');
  });
  it('an uninstalled install: 403 PlatformAppInstallRevokedError', async () => {
    const gone = await w.installApp(['memories:write']);
    const token = await gone.token();
    expect((await w.owner.client.delete(`/installs/${gone.installId}`)).status).toBe(204);
    await refused(() => w.stack.v0(token).post('/memories', body), 403, 'PlatformAppInstallRevokedError');
  });
});

describe('rate limit: 60 a minute per install', () => {
  it('the 61st within a minute is 429 with retry-after and writes nothing; another install counts apart; the window slides', async () => {
    nextWindow();
    const api = await app.api();
    for (let i = 0; i < 60; i++) {
      expect((await api.post('/memories', { text: `m${i}` })).status, `request ${i}`).toBe(201);
      if (i === 29) w.stack.clock.advance(40_000);
    }
    const over = await refused(() => api.post('/memories', { text: 'over' }), 429, 'PlatformApiRateLimitExceededError');
    expect(Number(over.headers.get('retry-after'))).toBe(20);
    const other = await w.installApp(['memories:write']);
    expect((await save({ text: 'other install' }, other)).status).toBe(201);
    w.stack.clock.advance(20_000);
    for (let i = 0; i < 30; i++) expect((await api.post('/memories', { text: `n${i}` })).status).toBe(201);
    expect((await api.post('/memories', { text: 'over' })).status).toBe(429);
  });
});

describe('a development install', () => {
  it('saves memories only its developer sees', async () => {
    const dev = await w.devApp(['memories:write']);
    const res = await save({ text: 'From my build' }, dev);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await list(w.developer.client)).items[0]).toMatchObject({ id: res.body.id, app: { id: dev.appId, name: 'Dev helper' } });
    for (const client of [w.member.client, w.owner.client]) expect((await list(client)).items.map((m: any) => m.id)).not.toContain(res.body.id);
  });
});

describe('the list (GET /client/v1/memories)', () => {
  it('pages newest first, also within one instant, and refuses a cursor it did not issue', async () => {
    nextWindow();
    for (let i = 0; i < 3; i++) expect((await save({ text: `p${i}` })).status).toBe(201);
    const first = await list(w.member.client, '?limit=2');
    expect(first.items.map((m: any) => m.text)).toEqual(['p2', 'p1']);
    const second = await list(w.member.client, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items[0].text).toBe('p0');
    expect((await w.member.client.get('/memories?cursor=nope')).status).toBe(400);
    expect((await w.stack.client().get('/memories')).status).toBe(401);
  });

  it('keeps a memory when its app is deleted, without the app', async () => {
    const doomed = await w.installApp(['memories:write'], 'Doomed');
    const res = await save({ text: 'Outlives its app' }, doomed);
    await w.stack.db.query('delete from apps where id = $1', [doomed.appId]);
    expect((await list(w.member.client)).items.find((m: any) => m.id === res.body.id)).toMatchObject({ text: 'Outlives its app', app: null });
  });
});
