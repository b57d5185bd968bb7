/**
 * `PUT` and `DELETE /v0/search/objects` over real HTTP: the stored object and `applied`, the
 * `updatedAt` guard, every field rule of the spec's table at its boundary and one past it, kinds
 * (unknown, without search), circles and the reach rule, credentials and scope, objects belonging
 * to the install, and that refused requests write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, issue, remove, startSearchWorld, type SearchWorld } from './setup.ts';

let w: SearchWorld;
beforeAll(async () => {
  w = await startSearchWorld();
});
afterAll(async () => {
  await w?.stop();
});

const stored = async (externalId: string, installId = w.installId) => {
  const { rows } = await w.stack.db.query<{ title: string; updated_at: Date; circle_ids: string[] | null; body: string | null }>(
    'select title, updated_at, circle_ids, body from search_objects where install_id = $1 and external_id = $2', [installId, externalId]);
  return rows;
};

describe('PUT /v0/search/objects', () => {
  it('stores the object and answers it with applied: true (body is searched, never answered)', async () => {
    const api = await w.app();
    const res = await api.put('/search/objects', issue('1', { subtitle: 'acme/web', body: 'Crash on start' }));
    expectStatus(res, 200);
    expect(res.body).toEqual({
      kind: 'issue', externalId: '1', title: 'Issue 1', url: 'https://tracker.example.com/issues/1', subtitle: 'acme/web',
      updatedAt: '2026-01-01T00:00:00.000Z', visibility: 'workspace', applied: true,
    });
    expect(await stored('1')).toMatchObject([{ title: 'Issue 1', body: 'Crash on start', circle_ids: null }]);
  });

  it('updates with a newer updatedAt; an older one is not applied and answers the stored object; an equal one applies', async () => {
    const api = await w.app();
    expectStatus(await api.put('/search/objects', issue('2', { title: 'First', updatedAt: '2026-02-01T00:00:00Z' })), 200);
    const newer = await api.put('/search/objects', issue('2', { title: 'Second', updatedAt: '2026-02-01T00:00:01Z' }));
    expect(newer.body).toMatchObject({ title: 'Second', updatedAt: '2026-02-01T00:00:01.000Z', applied: true });
    const older = await api.put('/search/objects', issue('2', { title: 'Stale', subtitle: 'x', updatedAt: '2026-02-01T00:00:00.999Z', visibility: { circleIds: [w.publicCircleId] } }));
    expectStatus(older, 200);
    expect(older.body).toEqual({
      kind: 'issue', externalId: '2', title: 'Second', url: 'https://tracker.example.com/issues/2', updatedAt: '2026-02-01T00:00:01.000Z',
      visibility: 'workspace', applied: false,
    });
    expect(await stored('2')).toMatchObject([{ title: 'Second', circle_ids: null }]);
    const equal = await api.put('/search/objects', issue('2', { title: 'Same time', updatedAt: '2026-02-01T00:00:01.000Z' }));
    expect(equal.body).toMatchObject({ title: 'Same time', applied: true });
  });

  it('compares instants, not text: an offset is read and answered in UTC', async () => {
    const api = await w.app();
    expectStatus(await api.put('/search/objects', issue('3', { updatedAt: '2026-03-01T10:00:00Z' })), 200);
    // 11:30+02:00 is 09:30Z: older than the stored 10:00Z although its text sorts later.
    const res = await api.put('/search/objects', issue('3', { title: 'Later text', updatedAt: '2026-03-01T11:30:00+02:00' }));
    expect(res.body).toMatchObject({ title: 'Issue 3', applied: false });
    const later = await api.put('/search/objects', issue('3', { title: 'Later', updatedAt: '2026-03-01T12:30:00+02:00' }));
    expect(later.body).toMatchObject({ title: 'Later', updatedAt: '2026-03-01T10:30:00.000Z', applied: true });
  });

  it('stores circle visibility once per circle, in the order sent', async () => {
    const api = await w.app();
    const res = await api.put('/search/objects', issue('4', { visibility: { circleIds: [w.sharedCircleId, w.publicCircleId, w.sharedCircleId] } }));
    expectStatus(res, 200);
    expect(res.body.visibility).toEqual({ circleIds: [w.sharedCircleId, w.publicCircleId] });
    // A later upsert may widen it to the workspace.
    const wide = await api.put('/search/objects', issue('4', { updatedAt: '2026-01-02T00:00:00Z' }));
    expect(wide.body.visibility).toBe('workspace');
  });
});

describe('field rules (spec table): at the boundary and one past it', () => {
  const emoji = '👍🏽'; // one character as people see it, four UTF-16 code units
  const ok: Array<[string, () => Record<string, unknown>]> = [
    ['externalId of 1 character', () => ({ externalId: 'a' })],
    ['externalId of 200 characters as people see them (400 UTF-16 units, 800 bytes)', () => ({ externalId: '😀'.repeat(200) })],
    ['title of 1 character', () => ({ title: 'T' })],
    ['title of 200 characters as people see them', () => ({ title: emoji.repeat(200) })],
    ['subtitle of 200 characters', () => ({ subtitle: 's'.repeat(200) })],
    ['subtitle empty', () => ({ subtitle: '' })],
    ['body of 8,000 characters', () => ({ body: 'é'.repeat(8_000) })],
    ['url with a path, query and port', () => ({ url: 'https://tracker.example.com:8443/issues/9?tab=1#top' })],
    ['updatedAt with an offset and fractions', () => ({ updatedAt: '2026-01-01T00:00:00.123456+05:30' })],
    ['visibility with 1 circle', () => ({ visibility: { circleIds: [w.publicCircleId] } })],
  ];
  it.each(ok)('accepts %s', async (_name, extra) => {
    const body = issue(`ok-${ok.findIndex(([name]) => name === _name)}`, extra());
    const externalId = body.externalId as string;
    const res = await (await w.app()).put('/search/objects', body);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ externalId, applied: true });
    expect(await stored(externalId)).toHaveLength(1);
  });

  const bad: Array<[string, Record<string, unknown>, Array<string | number>]> = [
    ['kind missing', { kind: undefined }, ['kind']],
    ['kind not an identifier', { kind: 'Issue!' }, ['kind']],
    ['externalId empty', { externalId: '' }, ['externalId']],
    ['externalId of 201 characters', { externalId: 'x'.repeat(201) }, ['externalId']],
    ['externalId of 200 characters but over 800 bytes', { externalId: '👨‍👩‍👧'.repeat(200) }, ['externalId']],
    ['title missing', { title: undefined }, ['title']],
    ['title empty', { title: '' }, ['title']],
    ['title of 201 characters', { title: emoji.repeat(201) }, ['title']],
    ['url http://', { url: 'http://tracker.example.com/issues/1' }, ['url']],
    ['url not a URL', { url: 'tracker.example.com/issues/1' }, ['url']],
    ['url missing', { url: undefined }, ['url']],
    ['subtitle of 201 characters', { subtitle: 's'.repeat(201) }, ['subtitle']],
    ['body of 8,001 characters', { body: 'b'.repeat(8_001) }, ['body']],
    ['updatedAt not ISO 8601', { updatedAt: 'yesterday' }, ['updatedAt']],
    ['updatedAt without a zone', { updatedAt: '2026-01-01T00:00:00' }, ['updatedAt']],
    ['updatedAt missing', { updatedAt: undefined }, ['updatedAt']],
    ['visibility missing', { visibility: undefined }, ['visibility']],
    ['visibility another word', { visibility: 'public' }, ['visibility']],
    ['visibility with 0 circles', { visibility: { circleIds: [] } }, ['visibility']],
    ['visibility with 51 circles', { visibility: { circleIds: Array.from({ length: 51 }, (_, i) => `cir_${i}`) } }, ['visibility']],
    ['visibility with an unknown field', { visibility: { circleIds: ['cir_1'], everyone: true } }, ['visibility']],
    ['an unknown field', { tags: ['x'] }, ['tags']],
  ];
  it.each(bad)('refuses %s with 400 PlatformApiInvalidRequestError, writing nothing', async (_name, extra, path) => {
    const res = await (await w.app()).put('/search/objects', issue('refused', extra));
    expectStatus(res, 400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    expect(res.body.issues.some((i: { path: unknown[] }) => JSON.stringify(i.path.slice(0, path.length)) === JSON.stringify(path)), JSON.stringify(res.body.issues)).toBe(true);
    expect(await stored('refused')).toEqual([]);
  });

  it('accepts 50 circles; refuses malformed JSON (400) and a body over 192 KB (413)', async () => {
    const circleIds: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await w.ws.client.post('/circles', { name: `Room ${i}`, visibility: 'public' });
      circleIds.push(res.body.circle.id);
    }
    const api = await w.app();
    const fifty = await api.put('/search/objects', issue('fifty', { visibility: { circleIds } }));
    expectStatus(fifty, 200);
    expect(fifty.body.visibility.circleIds).toHaveLength(50);
    const broken = await api.request('PUT', '/search/objects', { rawBody: '{"kind": "issue",', headers: { 'content-type': 'application/json' } });
    expectStatus(broken, 400);
    expect(broken.body._tag).toBe('PlatformApiInvalidRequestError');
    const huge = await api.put('/search/objects', issue('huge', { body: 'x'.repeat(200 * 1024) }));
    expectStatus(huge, 413);
    expect(huge.body._tag).toBe('PlatformApiPayloadTooLargeError');
    expect(await stored('huge')).toEqual([]);
  });
});

describe('kinds', () => {
  it('a kind the installed version lacks answers 422 PlatformAppReferenceKindUnknownError', async () => {
    const res = await (await w.app()).put('/search/objects', issue('k1', { kind: 'ticket' }));
    expectStatus(res, 422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppReferenceKindUnknownError', path: ['kind'] });
    expect(await stored('k1')).toEqual([]);
  });

  it('a kind without search answers 422 PlatformAppReferenceKindNotSearchableError', async () => {
    const res = await (await w.app()).put('/search/objects', issue('k2', { kind: 'project' }));
    expectStatus(res, 422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppReferenceKindNotSearchableError', path: ['kind'] });
    expect(await stored('k2')).toEqual([]);
  });
});

describe('circles and reach', () => {
  it('accepts public circles and private circles the app was invited to', async () => {
    const res = await (await w.app()).put('/search/objects', issue('r1', { visibility: { circleIds: [w.publicCircleId, w.sharedCircleId, w.ownerCircleId] } }));
    expectStatus(res, 200);
  });

  it('answers 404 PlatformAppCircleNotFoundError listing every circle out of reach or absent, and writes nothing', async () => {
    const other = await w.stack.createWorkspace({ name: 'Elsewhere' });
    const foreign = await other.client.post('/circles', { name: 'Theirs', visibility: 'public' });
    const res = await (await w.app()).put('/search/objects', issue('r2', {
      visibility: { circleIds: [w.publicCircleId, w.uninvitedCircleId, 'cir_nope', foreign.body.circle.id] },
    }));
    expectStatus(res, 404);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppCircleNotFoundError', circleIds: [w.uninvitedCircleId, 'cir_nope', foreign.body.circle.id] });
    expect(await stored('r2')).toEqual([]);
  });

  it('a connected circle is never within reach', async () => {
    const other = await w.stack.createWorkspace({ name: 'Partner' });
    const shared = await w.ws.client.post('/circles', { name: 'With partner', visibility: 'public' });
    expectStatus(await w.ws.client.post(`/circles/${shared.body.circle.id}/connection`, { workspaceId: other.workspace.id }), 200);
    const res = await (await w.app()).put('/search/objects', issue('r3', { visibility: { circleIds: [shared.body.circle.id] } }));
    expectStatus(res, 404);
    expect(res.body.circleIds).toEqual([shared.body.circle.id]);
  });

  it('a development install reaches only circles its developer belongs to', async () => {
    // Olive owns the app; a dev install of it in the same workspace (installs are unique per kind).
    const devId = 'ins_search_dev';
    await w.stack.db.query(
      `insert into installs (id, app_id, workspace_id, kind, version, approved_scopes, status, created_at, updated_at)
       values ($1, $2, $3, 'dev', 1, '["search:write"]', 'active', now(), now())`, [devId, w.appId, w.ws.workspace.id]);
    const dev = await w.app(devId);
    expectStatus(await dev.put('/search/objects', issue('d1', { visibility: { circleIds: [w.publicCircleId] } })), 200);
    const notHers = await w.member.client.post('/circles', { name: 'Mia only', visibility: 'public' });
    const res = await dev.put('/search/objects', issue('d2', { visibility: { circleIds: [notHers.body.circle.id] } }));
    expectStatus(res, 404);
    expect(res.body.circleIds).toEqual([notHers.body.circle.id]);
    // The workspace install reaches that public circle.
    expectStatus(await (await w.app()).put('/search/objects', issue('d2', { visibility: { circleIds: [notHers.body.circle.id] } })), 200);
  });
});

describe('DELETE /v0/search/objects', () => {
  it('removes the object; removing it again answers deleted: false (idempotent)', async () => {
    const api = await w.app();
    expectStatus(await api.put('/search/objects', issue('del1')), 200);
    const first = await remove(api, { kind: 'issue', externalId: 'del1' });
    expectStatus(first, 200);
    expect(first.body).toEqual({ deleted: true });
    expect(await stored('del1')).toEqual([]);
    expect((await remove(api, { kind: 'issue', externalId: 'del1' })).body).toEqual({ deleted: false });
  });

  it('keeps no tombstone: a later upsert, whatever its updatedAt, stores the object again', async () => {
    const api = await w.app();
    expectStatus(await api.put('/search/objects', issue('del2', { updatedAt: '2026-05-01T00:00:00Z' })), 200);
    await remove(api, { kind: 'issue', externalId: 'del2' });
    const again = await api.put('/search/objects', issue('del2', { updatedAt: '2026-04-01T00:00:00Z' }));
    expect(again.body).toMatchObject({ applied: true, updatedAt: '2026-04-01T00:00:00.000Z' });
  });

  it('removes objects of a kind the installed version no longer has (cleaning up after a version drops it)', async () => {
    const api = await w.app();
    await w.stack.db.query(
      `insert into search_objects (install_id, kind, external_id, workspace_id, app_id, title, url, updated_at, written_at)
       values ($1, 'ticket', 'old', $2, $3, 'Old', 'https://tracker.example.com/t/old', now(), now())`, [w.installId, w.ws.workspace.id, w.appId]);
    expect((await remove(api, { kind: 'ticket', externalId: 'old' })).body).toEqual({ deleted: true });
  });

  it('checks the body like the PUT: kind format, externalId, unknown fields, JSON', async () => {
    const api = await w.app();
    for (const body of [{ kind: 'Issue!', externalId: '1' }, { kind: 'issue', externalId: '' }, { kind: 'issue', externalId: '1', title: 'x' }, { kind: 'issue' }]) {
      const res = await remove(api, body);
      expectStatus(res, 400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
    expectStatus(await api.request('DELETE', '/search/objects'), 400);
  });
});

describe('objects belong to the install', () => {
  it('another install of the same app, or another app, neither sees nor touches them', async () => {
    const api = await w.app();
    expectStatus(await api.put('/search/objects', issue('own', { title: 'Mine', updatedAt: '2026-06-01T00:00:00Z' })), 200);

    const other = await w.stack.createWorkspace({ name: 'Second home' });
    const elsewhere = await w.app(await w.install(other));
    // Same kind and externalId, older updatedAt: a separate object, applied.
    const theirs = await elsewhere.put('/search/objects', issue('own', { title: 'Theirs', updatedAt: '2026-01-01T00:00:00Z' }));
    expect(theirs.body).toMatchObject({ title: 'Theirs', applied: true });
    expect((await remove(elsewhere, { kind: 'issue', externalId: 'own' })).body).toEqual({ deleted: true });
    expect((await remove(elsewhere, { kind: 'issue', externalId: 'own' })).body).toEqual({ deleted: false });

    const second = await w.createApp('tracker-two');
    const sibling = await w.app(second.installId);
    expect((await remove(sibling, { kind: 'issue', externalId: 'own' })).body).toEqual({ deleted: false });
    expect(await stored('own')).toMatchObject([{ title: 'Mine' }]);
  });
});

describe('credentials', () => {
  it('no token → 401 PlatformAppTokenMissingError; a member API key → 401 PlatformAppTokenInvalidError', async () => {
    const none = await w.stack.v0().put('/search/objects', issue('c1'));
    expectStatus(none, 401);
    expect(none.body._tag).toBe('PlatformAppTokenMissingError');
    const key = await w.stack.v0(w.ws.apiKey).put('/search/objects', issue('c1'));
    expectStatus(key, 401);
    expect(key.body._tag).toBe('PlatformAppTokenInvalidError');
    const del = await w.stack.v0().request('DELETE', '/search/objects', { body: { kind: 'issue', externalId: 'c1' } });
    expectStatus(del, 401);
    expect(await stored('c1')).toEqual([]);
  });

  it('without search:write → 403 PlatformAppScopeMissingError (scope) for both methods', async () => {
    await w.stack.db.query(`update installs set approved_scopes = approved_scopes - 'search:write' where id = $1`, [w.installId]);
    try {
      const api = await w.app();
      const put = await api.put('/search/objects', issue('c2'));
      expectStatus(put, 403);
      expect(put.body).toMatchObject({ _tag: 'PlatformAppScopeMissingError', scope: 'search:write' });
      const del = await remove(api, { kind: 'issue', externalId: '1' });
      expectStatus(del, 403);
      expect(del.body.scope).toBe('search:write');
    } finally {
      await w.stack.db.query(`update installs set approved_scopes = approved_scopes || '["search:write"]'::jsonb where id = $1`, [w.installId]);
    }
    expect(await stored('c2')).toEqual([]);
    expect(await stored('1')).toHaveLength(1);
  });

  it('a suspended install → 403 PlatformAppInstallRevokedError', async () => {
    const api = await w.app();
    await w.stack.db.query(`update installs set status = 'suspended' where id = $1`, [w.installId]);
    try {
      const res = await api.put('/search/objects', issue('c3'));
      expectStatus(res, 403);
      expect(res.body._tag).toBe('PlatformAppInstallRevokedError');
    } finally {
      await w.stack.db.query(`update installs set status = 'active' where id = $1`, [w.installId]);
    }
  });
});

describe('OpenAPI', () => {
  it('documents both methods at /search/objects', async () => {
    const doc = await (await w.stack.fetch('/v0/openapi.json')).json() as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/search/objects']?.put?.operationId).toBe('putSearchObject');
    expect(doc.paths['/search/objects']?.delete?.operationId).toBe('deleteSearchObject');
  });
});
