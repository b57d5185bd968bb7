/**
 * `PUT /v0/references` and `POST /v0/references/revalidate` over real HTTP with the Tracker
 * fixture: a push reaches every occurrence (one record), `version` orders pushes, null removes a
 * field, a block is checked by the catalog, revalidate resolves again on the next view, kinds,
 * credentials and scope, and that refused requests write nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cards, expectStatus, issueUrl, post, startReferencesWorld, type ReferencesWorld } from './setup.ts';

let w: ReferencesWorld;
beforeAll(async () => {
  w = await startReferencesWorld();
});
afterAll(async () => {
  await w?.stop();
});
beforeEach(() => {
  w.tracker.mode = 'normal';
});

const record = async (externalId: string) => {
  const { rows } = await w.stack.db.query<{ fields: any; version: string | null; stale: boolean }>(
    'select fields, version::text as version, stale from reference_records where install_id = $1 and kind = $2 and external_id = $3', [w.installId, 'issue', externalId]);
  return rows[0];
};

/** Two messages linking the same issue through two URLs; answers both message ids after their first view. */
async function twoOccurrences(id: string): Promise<[string, string]> {
  const a = await post(w.ws.client, w.circleId, `First ${issueUrl(id)}`);
  const b = await post(w.ws.client, w.circleId, `Second ${issueUrl(id, 'other')}`);
  expect((await cards(w.ws.client, a))[0].access).toBe('granted');
  expect((await cards(w.ws.client, b))[0].access).toBe('granted');
  return [a, b];
}

describe('PUT /v0/references', () => {
  it('a push reaches every occurrence; older and equal versions are not applied and answer the stored version', async () => {
    const [a, b] = await twoOccurrences('100');
    const api = await w.app();
    const pushed = await api.put('/references', { kind: 'issue', externalId: '100', fields: { title: 'Renamed', status: { state: 'closed', label: 'Closed' } }, version: 2 });
    expectStatus(pushed, 200);
    expect(pushed.body).toEqual({ applied: true, version: 2 });
    for (const id of [a, b]) {
      expect((await cards(w.member.client, id))[0].reference).toMatchObject({
        title: 'Renamed', status: { state: 'closed', label: 'Closed' }, summary: 'Open issue 100', subtitle: 'acme/web', version: 2,
      });
    }
    const older = await api.put('/references', { kind: 'issue', externalId: '100', fields: { title: 'Older' }, version: 1 });
    expectStatus(older, 200);
    expect(older.body).toEqual({ applied: false, version: 2 });
    const equal = await api.put('/references', { kind: 'issue', externalId: '100', fields: { title: 'Equal' }, version: 2 });
    expect(equal.body).toEqual({ applied: false, version: 2 });
    expect((await record('100'))!.fields.title).toBe('Renamed');
    const newer = await api.put('/references', { kind: 'issue', externalId: '100', fields: { subtitle: null, status: null }, version: 3 });
    expect(newer.body).toEqual({ applied: true, version: 3 });
    const card = (await cards(w.member.client, a))[0].reference;
    expect(card).toMatchObject({ title: 'Renamed', version: 3 });
    expect(card.subtitle).toBeUndefined();
    expect(card.status).toBeUndefined();
  });

  it('a version-0 push applies to a record that was only resolved', async () => {
    const [a] = await twoOccurrences('101');
    const api = await w.app();
    expect((await api.put('/references', { kind: 'issue', externalId: '101', fields: { title: 'Zero' }, version: 0 })).body).toEqual({ applied: true, version: 0 });
    expect((await cards(w.ws.client, a))[0].reference).toMatchObject({ title: 'Zero', version: 0 });
  });

  it('a push for an object no link resolved to yet stores it; its links still resolve when first seen', async () => {
    const api = await w.app();
    expect((await api.put('/references', { kind: 'issue', externalId: '102', fields: { title: 'Early' }, version: 5 })).body).toEqual({ applied: true, version: 5 });
    expect(await record('102')).toMatchObject({ fields: { title: 'Early' }, version: '5' });
    const id = await post(w.ws.client, w.circleId, issueUrl('102'));
    expect((await cards(w.ws.client, id))[0].reference).toMatchObject({ title: 'Issue 102 #1', version: 5 });
  });

  it('a block is checked by the catalog: an invalid tree is 400 and writes nothing; a valid one is shown', async () => {
    await twoOccurrences('103');
    const api = await w.app();
    const bad = await api.put('/references', {
      kind: 'issue', externalId: '103', version: 1,
      fields: { block: { tree: { type: 'uiBlock', attrs: { catalog: 1, summary: 'Broken' }, content: [] }, actions: {} } },
    });
    expectStatus(bad, 400);
    expect(bad.body._tag).toBe('PlatformApiInvalidRequestError');
    expect(bad.body.issues[0].path.slice(0, 4)).toEqual(['fields', 'block', 'tree']);
    expect(await record('103')).toMatchObject({ version: null });
    const tree = { type: 'uiBlock', attrs: { catalog: 1, summary: 'Pushed' }, content: [
      { type: 'uiHeader', content: [{ type: 'uiHeaderTitle', content: [{ type: 'text', text: 'Pushed' }] }] },
      { type: 'uiActions' },
    ] };
    const good = await api.put('/references', { kind: 'issue', externalId: '103', version: 1, fields: { block: { tree, actions: {} } } });
    expectStatus(good, 200);
    expect((await record('103'))!.fields.block.tree.attrs.summary).toBe('Pushed');
  });

  it('checks the body: known kind (422), fields not empty, no unknown fields, version ≥ 0, externalId 1 to 200 characters', async () => {
    const api = await w.app();
    const kind = await api.put('/references', { kind: 'nope', externalId: '1', fields: { title: 'x' }, version: 1 });
    expectStatus(kind, 422);
    expect(kind.body._tag).toBe('PlatformAppReferenceKindUnknownError');
    expectStatus(await api.put('/references', { kind: 'issue', externalId: '1', fields: {}, version: 1 }), 400);
    expectStatus(await api.put('/references', { kind: 'issue', externalId: '1', fields: { title: 'x', color: 'red' }, version: 1 }), 400);
    expectStatus(await api.put('/references', { kind: 'issue', externalId: '1', fields: { title: 'x' }, version: 1, extra: 1 }), 400);
    expectStatus(await api.put('/references', { kind: 'issue', externalId: '1', fields: { title: 'x' }, version: -1 }), 400);
    expectStatus(await api.put('/references', { kind: 'issue', externalId: '', fields: { title: 'x' }, version: 1 }), 400);
    expectStatus(await api.put('/references', { kind: 'issue', externalId: 'e'.repeat(200), fields: { title: 'x' }, version: 1 }), 200);
    expectStatus(await api.put('/references', { kind: 'issue', externalId: 'e'.repeat(201), fields: { title: 'x' }, version: 1 }), 400);
    const malformed = await w.stack.fetch('/v0/references', {
      method: 'PUT', headers: { authorization: `Bearer ${await w.token()}`, 'content-type': 'application/json' }, body: '{"kind":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { _tag: string })._tag).toBe('PlatformApiInvalidRequestError');
    const { rows } = await w.stack.db.query('select 1 from reference_records where install_id = $1 and external_id = $2', [w.installId, '1']);
    expect(rows).toHaveLength(0);
  });
});

describe('POST /v0/references/revalidate', () => {
  it('marks the shared record stale: the next view resolves it again for every occurrence', async () => {
    const [a, b] = await twoOccurrences('200');
    const before = w.tracker.resolves.length;
    const res = await (await w.app()).post('/references/revalidate', { kind: 'issue', externalId: '200' });
    expectStatus(res, 200);
    expect(res.body).toEqual({ scheduled: true });
    expect(await record('200')).toMatchObject({ stale: true });
    expect(w.tracker.resolves.length).toBe(before);
    expect((await cards(w.member.client, a))[0].reference.title).toBe('Issue 200 #3');
    expect((await cards(w.member.client, b))[0].reference.title).toBe('Issue 200 #3');
    expect(await record('200')).toMatchObject({ stale: false });
    expect(w.tracker.resolves.length).toBe(before + 1);
  });

  it('a revalidated record whose new resolve is unavailable keeps its last good fields and stays stale', async () => {
    const [a] = await twoOccurrences('201');
    expectStatus(await (await w.app()).post('/references/revalidate', { kind: 'issue', externalId: '201' }), 200);
    w.tracker.mode = 'garbage';
    expect((await cards(w.member.client, a))[0]).toMatchObject({ access: 'granted', reference: { title: 'Issue 201 #2' } });
    expect(await record('201')).toMatchObject({ stale: true });
  });

  it('answers scheduled: false for an object no link resolved to; an unknown kind is 422', async () => {
    const api = await w.app();
    expect((await api.post('/references/revalidate', { kind: 'issue', externalId: 'never' })).body).toEqual({ scheduled: false });
    expectStatus(await api.post('/references/revalidate', { kind: 'nope', externalId: '1' }), 422);
    expectStatus(await api.post('/references/revalidate', { kind: 'issue', externalId: '1', extra: true }), 400);
  });
});

describe('credentials and scope', () => {
  it('no token → 401 PlatformAppTokenMissingError; a member API key → 401 PlatformAppTokenInvalidError', async () => {
    for (const [method, path, body] of [['PUT', '/references', { kind: 'issue', externalId: '1', fields: { title: 'x' }, version: 1 }], ['POST', '/references/revalidate', { kind: 'issue', externalId: '1' }]] as const) {
      const none = await w.stack.v0().request(method, path, { body });
      expectStatus(none, 401);
      expect(none.body._tag).toBe('PlatformAppTokenMissingError');
      const key = await w.stack.v0(w.ws.apiKey).request(method, path, { body });
      expectStatus(key, 401);
      expect(key.body._tag).toBe('PlatformAppTokenInvalidError');
    }
  });

  it('without references:write → 403 PlatformAppScopeMissingError naming the scope; nothing written', async () => {
    const other = await w.otherApp({
      schemaVersion: 1, name: 'Plain', slug: 'plain-refs', hosting: 'self', endpoint: { url: 'https://plain.example.com/platform' },
      scopes: [], domains: ['plain.example.com'], events: [],
      references: [{ kind: 'doc', title: 'Doc', patterns: [{ id: 'doc', pattern: 'https://plain.example.com/d/:id' }], searchable: false, hasBlock: false }],
    });
    const api = await other.api();
    const push = await api.put('/references', { kind: 'doc', externalId: '1', fields: { title: 'x' }, version: 1 });
    expectStatus(push, 403);
    expect(push.body).toMatchObject({ _tag: 'PlatformAppScopeMissingError', scope: 'references:write' });
    const revalidate = await api.post('/references/revalidate', { kind: 'doc', externalId: '1' });
    expectStatus(revalidate, 403);
    const { rows } = await w.stack.db.query('select 1 from reference_records r join installs i on i.id = r.install_id where i.app_id = $1', [other.appId]);
    expect(rows).toHaveLength(0);
  });

  it('an install only touches its own records: the same kind and externalId of another app is another record', async () => {
    await twoOccurrences('300');
    const other = await w.otherApp({
      schemaVersion: 1, name: 'Copycat', slug: 'copycat-refs', hosting: 'self', endpoint: { url: 'https://copycat.example.com/platform' },
      scopes: ['references:write'], domains: ['copycat.example.com'], events: [],
      references: [{ kind: 'issue', title: 'Issue', patterns: [{ id: 'issue', pattern: 'https://copycat.example.com/i/:id' }], searchable: false, hasBlock: false }],
    });
    const res = await (await other.api()).put('/references', { kind: 'issue', externalId: '300', fields: { title: 'Hijacked' }, version: 9 });
    expect(res.body).toEqual({ applied: true, version: 9 });
    expect((await record('300'))!.fields.title).toBe('Issue 300 #2');
  });
});

describe('OpenAPI', () => {
  it('lists the references routes of /v0 and the client API', async () => {
    const v0 = await (await w.stack.fetch('/v0/openapi.json')).json() as any;
    expect(Object.keys(v0.paths)).toEqual(expect.arrayContaining(['/references', '/references/revalidate']));
    const client = await (await w.stack.fetch('/client/v1/openapi.json')).json() as any;
    expect(Object.keys(client.paths)).toEqual(expect.arrayContaining(['/references/preview', '/messages/{messageId}/references']));
  });
});
