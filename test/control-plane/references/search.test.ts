/**
 * Members searching an app's reference kind (`GET /client/v1/references/search`) over real HTTP
 * with the Tracker fixture app: `reference.search` sent with the member as actor and the query as
 * typed, every limit at the boundary and one past, credentials, unknown app / kind and a kind that
 * is not searchable, development installs, and apps answering garbage, a 500, too many items, an
 * http:// URL or nothing in time (200 with no items and an `error`, recorded as failed deliveries).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectStatus, startReferencesWorld, type ReferencesWorld } from './setup.ts';

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

const path = (params: Record<string, string | number>) =>
  `/references/search?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
const search = (params: Record<string, string | number>, client = w.member.client) => client.get(path({ appId: w.appId, kind: 'issue', ...params }));
const sentSince = (n: number) => w.tracker.searches.slice(n);

describe('searching a reference kind', () => {
  it('sends reference.search as the member, the query as typed, and answers the items', async () => {
    const before = w.tracker.searches.length;
    const q = '  Ünïcödé "bug" & #42  ';
    const res = await search({ q, limit: 5 });
    expectStatus(res, 200);
    expect(res.body).toEqual({
      items: [
        { url: 'https://tracker.example.com/acme/issues/1', title: `Issue 1: ${q}`, subtitle: 'acme/web', status: { state: 'open', label: 'Open' } },
        { url: 'https://tracker.example.com/acme/issues/2', title: `Issue 2: ${q}` },
        { url: 'https://tracker.example.com/acme/issues/3', title: `Issue 3: ${q}` },
      ],
    });
    const sent = sentSince(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toEqual({ kind: 'issue', query: q, limit: 5 });
    expect(sent[0]!.actor).toEqual({ memberId: w.member.id, name: 'Mia Member' });
  });

  it('limit defaults to 20', async () => {
    const before = w.tracker.searches.length;
    expectStatus(await search({ q: 'x' }), 200);
    expect(sentSince(before)[0]!.data.limit).toBe(20);
  });

  it('limit 1 and 50 are accepted; 0, 51 and non-integers are 400, nothing sent', async () => {
    for (const limit of [1, 50]) {
      const before = w.tracker.searches.length;
      const res = await search({ q: 'x', limit });
      expectStatus(res, 200);
      expect(res.body.items).toHaveLength(Math.min(limit, 3));
      expect(sentSince(before)[0]!.data.limit).toBe(limit);
    }
    for (const limit of ['0', '51', '2.5', 'ten']) {
      const before = w.tracker.searches.length;
      const res = await search({ q: 'x', limit });
      expectStatus(res, 400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
      expect(sentSince(before)).toEqual([]);
    }
  });

  it('q counts characters as people see them: 200 pass, 201 fail; empty or blank fail; missing fails', async () => {
    const accented = 'e\u0301'; // one character (é), two code points
    const ok = await search({ q: accented.repeat(200) });
    expectStatus(ok, 200);
    expect(ok.body.error).toBeUndefined();
    const before = w.tracker.searches.length;
    for (const q of [accented.repeat(201), 'a'.repeat(201), '', '   ']) {
      const res = await search({ q });
      expectStatus(res, 400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
    const missing = await w.member.client.get(`/references/search?appId=${w.appId}&kind=issue`);
    expectStatus(missing, 400);
    const unknownParam = await search({ q: 'x', extra: '1' });
    expectStatus(unknownParam, 400);
    expect(sentSince(before)).toEqual([]);
    expectStatus(await search({ q: 'a'.repeat(200) }), 200);
  });

  it('an answer of exactly `limit` items passes; the authoring API drops extra items itself', async () => {
    const res = await search({ q: 'many', limit: 2 });
    expectStatus(res, 200);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.error).toBeUndefined();
  });
});

describe('credentials and who may search', () => {
  it('no key → 401; a key of another workspace → 404 on appId; nothing sent', async () => {
    const before = w.tracker.searches.length;
    const none = await w.stack.client().get(path({ appId: w.appId, kind: 'issue', q: 'x' }));
    expectStatus(none, 401);
    const other = await w.stack.createWorkspace({ ownerName: 'Otto Other' });
    const res = await search({ q: 'x' }, other.client);
    expectStatus(res, 404);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: ['appId'] });
    expect(sentSince(before)).toEqual([]);
  });

  it('unknown app, unknown kind and a kind that is not searchable → 404; nothing sent', async () => {
    const before = w.tracker.searches.length;
    const app = await w.member.client.get(path({ appId: 'app_nope', kind: 'issue', q: 'x' }));
    expectStatus(app, 404);
    expect(app.body).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: ['appId'] });
    for (const kind of ['nope', 'project']) {
      const res = await search({ q: 'x', kind });
      expectStatus(res, 404);
      expect(res.body).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: ['kind'] });
    }
    const badKind = await search({ q: 'x', kind: 'Not A Kind' });
    expectStatus(badKind, 400);
    expect(sentSince(before)).toEqual([]);
  });

  it('a suspended install is not searchable; a development install only by its developer', async () => {
    const set = (column: 'status' | 'kind', value: string) => w.stack.db.query(`update installs set ${column} = $1 where id = $2`, [value, w.installId]);
    try {
      await set('status', 'suspended');
      expectStatus(await search({ q: 'x' }), 404);
      await set('status', 'active');
      await set('kind', 'dev');
      const mia = await search({ q: 'x' });
      expectStatus(mia, 404);
      expect(mia.body.path).toEqual(['appId']);
      // Olive created the app: the development install is hers, sent through the development relay
      // (none is connected in this suite, which the answer says).
      const olive = await search({ q: 'x' }, w.ws.client);
      expectStatus(olive, 200);
      expect(olive.body).toMatchObject({ items: [], error: { reason: 'relay-not-connected' } });
    } finally {
      await set('status', 'active');
      await set('kind', 'workspace');
    }
  });
});

describe('apps answering badly: 200 with no items and an error', () => {
  const cases = [
    ['garbage', {}, 'invalid-json'],
    ['status-500', {}, 'http-status'],
    ['too-many', { limit: 3 }, 'response-invalid'],
    ['too-many', { limit: 50 }, 'response-invalid'],
    ['http-url', {}, 'response-invalid'],
  ] as const;
  for (const [mode, extra, reason] of cases) {
    it(`${mode} ${JSON.stringify(extra)} → ${reason}`, async () => {
      w.tracker.mode = mode;
      const res = await search({ q: 'x', ...extra });
      expectStatus(res, 200);
      expect(res.body.items).toEqual([]);
      expect(res.body.error).toMatchObject({ reason });
      expect(typeof res.body.error.message).toBe('string');
    });
  }

  it('a handler that throws', async () => {
    const res = await search({ q: 'boom' });
    expectStatus(res, 200);
    expect(res.body.items).toEqual([]);
    expect(res.body.error.reason).toBeTypeOf('string');
  });

  it('an app answering after the 5 s wait', async () => {
    w.tracker.mode = 'hang';
    const res = await search({ q: 'slow' });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ items: [], error: { reason: 'unreachable' } });
  }, 15_000);

  it('failed searches are recorded for the Deliveries page, an invalid answer as such', async () => {
    await w.stack.controlPlane.blocks.settled();
    const { rows } = await w.stack.db.query<{ error: string | null }>(
      "select last_error as error from deliveries where install_id = $1 and type = $2 and status = 'failed'", [w.installId, 'reference.search']);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.some((r) => r.error?.includes('at most 3'))).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('lists the search route', async () => {
    const res = await w.stack.fetch('/client/v1/openapi.json');
    const doc = await res.json() as any;
    expect(doc.paths['/references/search'].get.operationId).toBe('searchReferences');
    expect(doc.paths['/references/search'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['appId', 'kind', 'q', 'limit']));
  });
});
