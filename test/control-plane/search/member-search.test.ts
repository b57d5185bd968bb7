/**
 * The member's search over apps' search objects (`GET /client/v1/search`) over real HTTP: only
 * objects a member may see (workspace-wide, or a circle they see), of active installs and kinds
 * still searchable, development installs' only for their developer; words matched in title,
 * subtitle and body as prefixes, best match first; filters; paging; and the OpenAPI entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, issue, startSearchWorld, TRACKER_MANIFEST, type SearchWorld } from './setup.ts';

let w: SearchWorld;
beforeAll(async () => {
  w = await startSearchWorld();
  const api = await w.app();
  const put = async (id: string, extra: Record<string, unknown>) => expectStatus(await api.put('/search/objects', issue(id, extra)), 200);
  await put('everyone', { title: 'Quarterly roadmap', visibility: 'workspace', updatedAt: '2026-01-03T00:00:00Z' });
  await put('public', { title: 'Login crash', subtitle: 'acme/web', visibility: { circleIds: [w.publicCircleId] }, updatedAt: '2026-01-02T00:00:00Z' });
  await put('shared', { title: 'Shared plan', body: 'The roadmap for the shared circle', visibility: { circleIds: [w.sharedCircleId] }, updatedAt: '2026-01-01T00:00:00Z' });
  await put('owners', { title: 'Owners only', visibility: { circleIds: [w.ownerCircleId] } });
  await put('either', { title: 'Either circle', visibility: { circleIds: [w.ownerCircleId, w.sharedCircleId] } });
});
afterAll(async () => {
  await w?.stop();
});

const ids = (res: { body: { items: Array<{ externalId: string }> } }) => res.body.items.map((i) => i.externalId);
const search = async (client: SearchWorld['ws']['client'], query = '') => {
  const res = await client.get(`/search${query}`);
  expectStatus(res, 200);
  return res;
};

describe('who sees what', () => {
  it('a member sees workspace-wide objects and objects of circles they see (public, or private and a member)', async () => {
    expect(ids(await search(w.member.client)).sort()).toEqual(['either', 'everyone', 'public', 'shared']);
    expect(ids(await search(w.ws.client)).sort()).toEqual(['either', 'everyone', 'owners', 'public', 'shared']);
  });

  it('answers each result attributed to its app, without body or visibility', async () => {
    const res = await search(w.member.client, '?q=login');
    expect(res.body).toEqual({
      items: [{
        app: { id: w.appId, name: 'Tracker' }, kind: 'issue', externalId: 'public', title: 'Login crash',
        url: 'https://tracker.example.com/issues/public', subtitle: 'acme/web', updatedAt: '2026-01-02T00:00:00.000Z',
      }],
      nextCursor: null,
    });
  });

  it('follows circle membership as it changes', async () => {
    expectStatus(await w.ws.client.put(`/circles/${w.ownerCircleId}/members/${w.member.id}`), 204);
    expect(ids(await search(w.member.client))).toContain('owners');
    expectStatus(await w.ws.client.request('DELETE', `/circles/${w.ownerCircleId}/members/${w.member.id}`), 204);
    expect(ids(await search(w.member.client))).not.toContain('owners');
  });

  it('another workspace sees none of them', async () => {
    const other = await w.stack.createWorkspace({ name: 'Elsewhere' });
    expect((await search(other.client)).body.items).toEqual([]);
  });

  it('objects of an install that is not active are hidden, and come back with it', async () => {
    await w.stack.db.query(`update installs set status = 'suspended' where id = $1`, [w.installId]);
    try {
      expect((await search(w.member.client)).body.items).toEqual([]);
    } finally {
      await w.stack.db.query(`update installs set status = 'active' where id = $1`, [w.installId]);
    }
    expect(ids(await search(w.member.client))).toContain('everyone');
  });

  it('objects of a kind the running version no longer searches are hidden', async () => {
    const manifest = { ...TRACKER_MANIFEST, references: TRACKER_MANIFEST.references.map((r) => ({ ...r, searchable: false })) };
    await w.stack.db.query(
      `insert into app_versions (app_id, version, target, manifest, manifest_hash, created_at) values ($1, 99, 'production', $2, 'test', now())`,
      [w.appId, JSON.stringify(manifest)]);
    const { rows } = await w.stack.db.query<{ version: number }>('select version from installs where id = $1', [w.installId]);
    await w.stack.db.query('update installs set version = 99 where id = $1', [w.installId]);
    try {
      expect((await search(w.member.client)).body.items).toEqual([]);
    } finally {
      await w.stack.db.query('update installs set version = $2 where id = $1', [w.installId, rows[0]!.version]);
    }
  });

  it('a development install\'s objects are shown only to its developer', async () => {
    const devId = 'ins_search_dev_member';
    await w.stack.db.query(
      `insert into installs (id, app_id, workspace_id, kind, version, approved_scopes, status, created_at, updated_at)
       values ($1, $2, $3, 'dev', 1, '["search:write"]', 'active', now(), now())`, [devId, w.appId, w.ws.workspace.id]);
    try {
      const dev = await w.app(devId);
      expectStatus(await dev.put('/search/objects', issue('dev-only', { title: 'Draft from dev' })), 200);
      expect(ids(await search(w.ws.client, '?q=draft'))).toEqual(['dev-only']);
      expect(ids(await search(w.member.client, '?q=draft'))).toEqual([]);
    } finally {
      await w.stack.db.query('delete from installs where id = $1', [devId]);
    }
  });
});

describe('matching', () => {
  it('matches words in title, subtitle and body, case-insensitively, as prefixes; every word must match', async () => {
    expect(ids(await search(w.member.client, '?q=CRASH'))).toEqual(['public']);
    expect(ids(await search(w.member.client, '?q=acme'))).toEqual(['public']);
    expect(ids(await search(w.member.client, '?q=circ'))).toEqual(expect.arrayContaining(['shared', 'either']));
    expect(ids(await search(w.member.client, '?q=road%20shared'))).toEqual(['shared']);
    expect(ids(await search(w.member.client, '?q=roadmap%20nothing'))).toEqual([]);
  });

  it('ranks a title match above a body match', async () => {
    expect(ids(await search(w.member.client, '?q=roadmap'))).toEqual(['everyone', 'shared']);
  });

  it('reads query syntax and punctuation as plain text', async () => {
    for (const q of ['roadmap:*', '!roadmap', 'roadmap & | (', '"roadmap"', "roadmap'", "'", '\\', '(']) {
      const res = await search(w.member.client, `?q=${encodeURIComponent(q)}`);
      if (/[a-z]/.test(q)) expect(ids(res), q).toContain('everyone');
      else expect(res.body.items, q).toEqual([]);
    }
  });

  it('blank q lists everything visible, newest first (ties by kind and id)', async () => {
    expect(ids(await search(w.member.client, '?q=%20%20'))).toEqual(['everyone', 'public', 'either', 'shared']);
  });

  it('filters by app and kind', async () => {
    expect((await search(w.member.client, `?appId=${w.appId}`)).body.items.length).toBeGreaterThan(0);
    expect((await search(w.member.client, '?appId=app_other')).body.items).toEqual([]);
    expect((await search(w.member.client, '?kind=project')).body.items).toEqual([]);
    expect((await search(w.member.client, '?kind=issue')).body.items.length).toBeGreaterThan(0);
  });
});

describe('paging and request rules', () => {
  it('pages with limit and nextCursor until the end, each object once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await search(w.ws.client, `?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res));
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    expect(seen.sort()).toEqual(['either', 'everyone', 'owners', 'public', 'shared']);
  });

  it('refuses a limit outside 1 to 50, a foreign cursor, an overlong q and unknown parameters', async () => {
    expectStatus(await search(w.member.client, '?limit=50'), 200);
    for (const query of ['?limit=51', '?limit=0', '?cursor=nope', `?q=${'a'.repeat(201)}`, '?sort=title', '?kind=Issue!']) {
      const res = await w.member.client.get(`/search${query}`);
      expectStatus(res, 400);
      expect(res.body._tag, query).toBe('PlatformApiInvalidRequestError');
    }
    expectStatus(await search(w.member.client, `?q=${'a'.repeat(200)}`), 200);
  });

  it('needs a member API key', async () => {
    const res = await w.stack.client().get('/search');
    expectStatus(res, 401);
  });

  it('is in the client OpenAPI document', async () => {
    const doc = await (await w.stack.fetch('/client/v1/openapi.json')).json() as { paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string }> }>> };
    const op = doc.paths['/search']?.get;
    expect(op?.operationId).toBe('searchObjects');
    expect(op?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['q', 'appId', 'kind', 'limit', 'cursor']));
  });
});
