/**
 * Link cards over real HTTP with the Tracker fixture app: a message's links resolved with
 * `reference.resolve` (one shared record per kind and externalId), each ReferenceResolution
 * variant and what is cached, the preview's limits at the boundary and one past, reach, and apps
 * answering garbage, the wrong count, a bad tree, a 500 or nothing in time (unavailable, never
 * stored, resolved again on the next view).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DENIAL_TTL_MS } from '../../../control-plane/src/messaging/references/resolve.ts';
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

const storedLinks = async (url: string) => {
  const { rows } = await w.stack.db.query<{ access: string; record_id: string | null }>('select access, record_id from reference_links where url = $1', [url]);
  return rows;
};
const resolvesSince = (n: number) => w.tracker.resolves.slice(n);

describe('a message\'s link cards', () => {
  it('resolves the claimed links once, in order, as the reading member; two links to one object share one record', async () => {
    const text = `See ${issueUrl('7')} and ${issueUrl('7', 'other')}, also https://tracker.example.com/projects/3 and https://elsewhere.example.com/x.`;
    const id = await post(w.ws.client, w.circleId, text);
    const before = w.tracker.resolves.length;
    const items = await cards(w.member.client, id);
    expect(items.map((c: any) => [c.url, c.kind, c.patternId, c.access])).toEqual([
      [issueUrl('7'), 'issue', 'issue', 'granted'],
      [issueUrl('7', 'other'), 'issue', 'issue', 'granted'],
      ['https://tracker.example.com/projects/3', 'project', 'project', 'granted'],
    ]);
    expect(items[0].app).toEqual({ id: w.appId, name: 'Tracker', installId: w.installId });
    // Both links were resolved in one delivery (the fixture counts resolves per id): one record,
    // holding the later answer, shown on both cards.
    expect(items[0].reference).toMatchObject({
      externalId: '7', title: 'Issue 7 #2', summary: 'Open issue 7', subtitle: 'acme/web', status: { state: 'open', label: 'Open' },
      visibility: 'restricted', updatedAt: '2026-01-01T00:00:00.000Z', version: null,
    });
    expect(items[1].reference).toEqual(items[0].reference);
    expect(items[2].reference).toMatchObject({ externalId: 'p-3', title: 'Project 3', visibility: 'public' });
    const sent = resolvesSince(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.actor).toEqual({ memberId: w.member.id, name: 'Mia Member' });
    expect(sent[0]!.data.items).toEqual([
      { kind: 'issue', patternId: 'issue', params: { org: 'acme', id: '7' }, url: issueUrl('7') },
      { kind: 'issue', patternId: 'issue', params: { org: 'other', id: '7' }, url: issueUrl('7', 'other') },
      { kind: 'project', patternId: 'project', params: { id: '3' }, url: 'https://tracker.example.com/projects/3' },
    ]);

    // Read again, and in another message: stored, nothing sent.
    expect((await cards(w.ws.client, id)).map((c: any) => c.reference.title)).toEqual(['Issue 7 #2', 'Issue 7 #2', 'Project 3']);
    const again = await post(w.ws.client, w.circleId, `Still ${issueUrl('7')}`);
    expect((await cards(w.ws.client, again))[0].reference.id).toBe(items[0].reference.id);
    expect(resolvesSince(before)).toHaveLength(1);
    const { rows } = await w.stack.db.query('select 1 from reference_records where install_id = $1 and kind = $2 and external_id = $3', [w.installId, 'issue', '7']);
    expect(rows).toHaveLength(1);
  });

  it('shows at most 20 cards (the first 20 claimed links); a message without claimed links has none', async () => {
    const urls = Array.from({ length: 21 }, (_, i) => issueUrl(String(1000 + i)));
    const id = await post(w.ws.client, w.circleId, urls.join(' '));
    const before = w.tracker.resolves.length;
    const items = await cards(w.ws.client, id);
    expect(items.map((c: any) => c.url)).toEqual(urls.slice(0, 20));
    expect(resolvesSince(before).map((d) => d.data.items.length)).toEqual([20]);
    expect(await cards(w.ws.client, await post(w.ws.client, w.circleId, 'https://elsewhere.example.com/a nothing to see'))).toEqual([]);
  });

  it('reach: a private circle the app is not invited to has no cards until the app is invited; direct messages have none', async () => {
    const id = await post(w.ws.client, w.privateCircleId, `Hidden ${issueUrl('55')}`);
    const before = w.tracker.resolves.length;
    expect(await cards(w.ws.client, id)).toEqual([]);
    expect(resolvesSince(before)).toHaveLength(0);
    // Mia cannot see the message at all.
    expectStatus(await w.member.client.get(`/messages/${id}/references`), 404);
    expectStatus(await w.ws.client.put(`/circles/${w.privateCircleId}/app-invitations/${w.appId}`), 200);
    expect((await cards(w.ws.client, id)).map((c: any) => c.access)).toEqual(['granted']);
    expectStatus(await w.ws.client.delete(`/circles/${w.privateCircleId}/app-invitations/${w.appId}`), 204);

    const dm = await w.ws.client.post('/direct-messages', { to: w.member.id, markdown: `DM ${issueUrl('56')}` });
    expectStatus(dm, 201);
    expect(await cards(w.member.client, dm.body.message.id)).toEqual([]);
  });

  it('answers 404 for a message that does not exist and 401 without a key', async () => {
    expectStatus(await w.ws.client.get('/messages/msg_nope/references'), 404);
    const res = await w.stack.fetch('/client/v1/messages/msg_nope/references');
    expect(res.status).toBe(401);
  });
});

describe('ReferenceResolution variants', () => {
  it('denials are stored and shown without a record; unavailable and a throwing resolve are not stored and resolve again', async () => {
    const urls = ['secret', 'login', 'gone', 'later', 'boom'].map((id) => issueUrl(id));
    const before = w.tracker.resolves.length;
    const res = await w.member.client.post('/references/preview', { urls });
    expectStatus(res, 200);
    expect(res.body.items.map((c: any) => [c.access, c.reference])).toEqual([
      ['forbidden', null], ['unauthorized', null], ['notFound', null], ['unavailable', null], ['unavailable', null],
    ]);
    expect(await storedLinks(urls[0]!)).toEqual([{ access: 'forbidden', record_id: null }]);
    expect(await storedLinks(urls[3]!)).toEqual([]);
    expect(await storedLinks(urls[4]!)).toEqual([]);
    const again = await w.member.client.post('/references/preview', { urls });
    expect(again.body.items.map((c: any) => c.access)).toEqual(['forbidden', 'unauthorized', 'notFound', 'unavailable', 'unavailable']);
    // Only the two unavailable links were sent again.
    expect(resolvesSince(before).map((d) => d.data.items.map((i: any) => i.params.id))).toEqual([
      ['secret', 'login', 'gone', 'later', 'boom'], ['later', 'boom'],
    ]);
  });

  it('a denial is kept for an hour, then the link is resolved again', async () => {
    const url = issueUrl('secret', 'ttl');
    expect((await w.member.client.post('/references/preview', { urls: [url] })).body.items[0].access).toBe('forbidden');
    const before = w.tracker.resolves.length;
    w.stack.clock.advance(DENIAL_TTL_MS - 1);
    expect((await w.member.client.post('/references/preview', { urls: [url] })).body.items[0].access).toBe('forbidden');
    expect(resolvesSince(before)).toHaveLength(0);
    w.stack.clock.advance(1);
    expect((await w.member.client.post('/references/preview', { urls: [url] })).body.items[0].access).toBe('forbidden');
    expect(resolvesSince(before)).toHaveLength(1);
  });

  it('a granted resolution\'s block is checked by the catalog; members see its tree, never its action table', async () => {
    const res = await w.member.client.post('/references/preview', { urls: [issueUrl('block')] });
    expectStatus(res, 200);
    const card = res.body.items[0];
    expect(card).toMatchObject({ access: 'granted', reference: { title: 'With block', visibility: 'public' } });
    expect(card.reference.block.tree).toMatchObject({ type: 'uiBlock', attrs: { summary: 'Issue card' } });
    expect(card.reference.block.actions).toBeUndefined();
  });
});

describe('apps answering badly: unavailable, nothing stored, resolved again later', () => {
  for (const mode of ['garbage', 'status-500', 'wrong-count', 'bad-tree'] as const) {
    it(`${mode}`, async () => {
      const urls = [issueUrl(`${mode}-1`), issueUrl(`${mode}-2`)];
      w.tracker.mode = mode;
      const res = await w.member.client.post('/references/preview', { urls });
      expectStatus(res, 200);
      expect(res.body.items.map((c: any) => c.access)).toEqual(['unavailable', 'unavailable']);
      for (const url of urls) expect(await storedLinks(url)).toEqual([]);
      w.tracker.mode = 'normal';
      const later = await w.member.client.post('/references/preview', { urls });
      expect(later.body.items.map((c: any) => c.access)).toEqual(['granted', 'granted']);
    });
  }

  it('an app answering after the 5 s wait: unavailable, not stored', async () => {
    w.tracker.mode = 'hang';
    const url = issueUrl('slow');
    const res = await w.member.client.post('/references/preview', { urls: [url] });
    expectStatus(res, 200);
    expect(res.body.items[0].access).toBe('unavailable');
    expect(await storedLinks(url)).toEqual([]);
  }, 15_000);

  it('failed deliveries are recorded for the Deliveries page', async () => {
    await w.stack.controlPlane.blocks.settled();
    const { rows } = await w.stack.db.query<{ error: string | null }>(
      "select last_error as error from deliveries where install_id = $1 and type = $2 and status = 'failed'", [w.installId, 'reference.resolve']);
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('POST /client/v1/references/preview', () => {
  it('takes 20 URLs (one delivery) and refuses 21; null for URLs no app claims', async () => {
    const urls = Array.from({ length: 20 }, (_, i) => (i === 19 ? 'https://elsewhere.example.com/x' : issueUrl(String(2000 + i))));
    const before = w.tracker.resolves.length;
    const res = await w.member.client.post('/references/preview', { urls });
    expectStatus(res, 200);
    expect(res.body.items).toHaveLength(20);
    expect(res.body.items[19]).toBeNull();
    expect(resolvesSince(before).map((d) => d.data.items.length)).toEqual([19]);
    const over = await w.member.client.post('/references/preview', { urls: [...urls, issueUrl('2999')] });
    expectStatus(over, 400);
    expect(over.body._tag).toBe('PlatformApiInvalidRequestError');
    expect(await storedLinks(issueUrl('2999'))).toEqual([]);
  });

  it('URLs of 2,048 characters pass, 2,049 do not; only https://; no unknown fields, no empty list', async () => {
    const base = issueUrl('');
    const long = base + '9'.repeat(2048 - base.length);
    expect(long).toHaveLength(2048);
    expectStatus(await w.member.client.post('/references/preview', { urls: [long] }), 200);
    const tooLong = await w.member.client.post('/references/preview', { urls: [`${long}9`] });
    expectStatus(tooLong, 400);
    expect(tooLong.body.issues[0].path).toEqual(['urls', 0]);
    expectStatus(await w.member.client.post('/references/preview', { urls: ['http://tracker.example.com/acme/issues/1'] }), 400);
    expectStatus(await w.member.client.post('/references/preview', { urls: [] }), 400);
    expectStatus(await w.member.client.post('/references/preview', { urls: [issueUrl('1')], extra: true }), 400);
  });

  it('with a circle: the reach rule picks the apps; a circle the member cannot see is 404', async () => {
    const none = await w.ws.client.post('/references/preview', { urls: [issueUrl('77')], circleId: w.privateCircleId });
    expectStatus(none, 200);
    expect(none.body.items).toEqual([null]);
    expectStatus(await w.member.client.post('/references/preview', { urls: [issueUrl('77')], circleId: w.privateCircleId }), 404);
    const open = await w.member.client.post('/references/preview', { urls: [issueUrl('77')], circleId: w.circleId });
    expect(open.body.items[0].access).toBe('granted');
  });
});

describe('patterns', () => {
  const manifest = (count: number) => ({
    schemaVersion: 1, name: 'Many', slug: 'many-patterns', hosting: 'self', endpoint: { url: 'https://many.example.com/platform' },
    scopes: [], domains: ['many.example.com'], events: [],
    references: [{ kind: 'doc', title: 'Doc', searchable: false, hasBlock: false,
      patterns: Array.from({ length: count }, (_, i) => ({ id: `p${i}`, pattern: `https://many.example.com/d${i}/:id` })) }],
  });

  it('50 patterns per kind sync; 51 are refused with too-many-patterns', async () => {
    const created = await w.ws.client.post('/apps', { name: 'Many', slug: 'many-patterns', hosting: 'self', endpoint: { url: 'https://many.example.com/platform' } });
    expectStatus(created, 201);
    const v0 = w.stack.v0(w.ws.apiKey);
    expectStatus(await v0.put(`/apps/${created.body.app.id}/manifest`, { manifest: manifest(50), target: 'production' }), 200);
    const over = await v0.put(`/apps/${created.body.app.id}/manifest`, { manifest: manifest(51), target: 'production' });
    expectStatus(over, 422);
    expect(over.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'too-many-patterns' });
  });
});
