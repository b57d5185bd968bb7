/**
 * App storage over real HTTP and real Postgres (`/v0/storage/get|list|commit`, our extension of the
 * spec): reads of absent and present keys, lists by prefix and range in byte order with cursors and
 * reversed, expiry on the stack's clock, atomic commits with checks (the failed one named, nothing
 * applied), sums, and isolation: another app, the development install, another workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboxWorld, type InboxWorld, type Installed } from '../notifications/setup.ts';

let w: InboxWorld;
let app: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  app = await w.installApp([], 'Keeper');
});
afterAll(async () => {
  await w?.stop();
});

async function commit(on: Installed, body: unknown) {
  return (await on.api()).post('/storage/commit', body);
}
async function get(on: Installed, keys: string[]) {
  const res = await (await on.api()).post('/storage/get', { keys });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entries as Array<{ key: string; value: unknown; versionstamp: string | null }>;
}
async function list(on: Installed, body: Record<string, unknown>) {
  const res = await (await on.api()).post('/storage/list', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { entries: Array<{ key: string; value: unknown; versionstamp: string }>; cursor: string | null };
}

describe('get, set and delete', () => {
  it('reads an absent key as null, a set one with its versionstamp, and a deleted one as absent again', async () => {
    expect(await get(app, ['gsd/a'])).toEqual([{ key: 'gsd/a', value: null, versionstamp: null }]);
    const set = await commit(app, { mutations: [{ type: 'set', key: 'gsd/a', value: { n: 1, tags: ['x'] } }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ ok: true, versionstamp: expect.stringMatching(/^[0-9a-f]{20}$/) });
    expect(await get(app, ['gsd/a', 'gsd/b'])).toEqual([
      { key: 'gsd/a', value: { n: 1, tags: ['x'] }, versionstamp: set.body.versionstamp },
      { key: 'gsd/b', value: null, versionstamp: null },
    ]);
    const del = await commit(app, { mutations: [{ type: 'delete', key: 'gsd/a' }] });
    expect(del.body.versionstamp > set.body.versionstamp).toBe(true);
    expect(await get(app, ['gsd/a'])).toEqual([{ key: 'gsd/a', value: null, versionstamp: null }]);
  });

  it('stops reading an entry once its expiry passes on the service clock', async () => {
    await commit(app, { mutations: [{ type: 'set', key: 'exp/a', value: 'soon', expireIn: 5_000 }] });
    w.stack.clock.advance(4_999);
    expect((await get(app, ['exp/a']))[0]!.value).toBe('soon');
    w.stack.clock.advance(1);
    expect((await get(app, ['exp/a']))[0]!.value).toBeNull();
    expect((await list(app, { prefix: 'exp/' })).entries).toEqual([]);
  });
});

describe('list', () => {
  beforeAll(async () => {
    // Byte order: 'B' < 'a' < 'é' (0xC3 0xA9) < '😀' (0xF0 …); U+FFFD (0xEF) sorts before U+1F600.
    const keys = ['ls/a', 'ls/B', 'ls/é', 'ls/\u{1F600}', 'ls/\uFFFD', 'ls/b/1', 'ls/b/2', 'lt/other'];
    const res = await commit(app, { mutations: keys.map((key, i) => ({ type: 'set', key, value: i })) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('lists a prefix in UTF-8 byte order, and reversed', async () => {
    const forward = (await list(app, { prefix: 'ls/' })).entries.map((e) => e.key);
    expect(forward).toEqual(['ls/B', 'ls/a', 'ls/b/1', 'ls/b/2', 'ls/é', 'ls/\uFFFD', 'ls/\u{1F600}']);
    expect((await list(app, { prefix: 'ls/', reverse: true })).entries.map((e) => e.key)).toEqual([...forward].reverse());
  });

  it('pages with a cursor until the cursor is null, both ways', async () => {
    for (const reverse of [false, true]) {
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await list(app, { prefix: 'ls/', limit: 2, reverse, ...(cursor ? { cursor } : {}) });
        expect(page.entries.length).toBeLessThanOrEqual(2);
        seen.push(...page.entries.map((e) => e.key));
        cursor = page.cursor;
      } while (cursor !== null);
      expect(seen).toHaveLength(7);
      expect(seen[0]).toBe(reverse ? 'ls/\u{1F600}' : 'ls/B');
    }
  });

  it('lists a range (start inclusive, end exclusive), within a prefix', async () => {
    expect((await list(app, { start: 'ls/a', end: 'ls/b/2' })).entries.map((e) => e.key)).toEqual(['ls/a', 'ls/b/1']);
    expect((await list(app, { prefix: 'ls/b/', start: 'ls/b/2' })).entries.map((e) => e.key)).toEqual(['ls/b/2']);
    expect((await list(app, { start: 'ls/\uFFFD' })).entries.map((e) => e.key)).toEqual(['ls/\uFFFD', 'ls/\u{1F600}', 'lt/other']);
  });

  it('refuses a cursor it did not issue', async () => {
    const res = await (await app.api()).post('/storage/list', { cursor: '!!' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['cursor'] });
  });
});

describe('atomic commits', () => {
  it('applies when every check holds, including "absent" (null)', async () => {
    const first = await commit(app, { checks: [{ key: 'at/a', versionstamp: null }], mutations: [{ type: 'set', key: 'at/a', value: 1 }] });
    expect(first.status).toBe(200);
    const second = await commit(app, {
      checks: [{ key: 'at/a', versionstamp: first.body.versionstamp }, { key: 'at/b', versionstamp: null }],
      mutations: [{ type: 'set', key: 'at/a', value: 2 }, { type: 'set', key: 'at/b', value: 'b' }],
    });
    expect(second.status).toBe(200);
    expect((await get(app, ['at/a', 'at/b'])).map((e) => [e.value, e.versionstamp])).toEqual([[2, second.body.versionstamp], ['b', second.body.versionstamp]]);
  });

  it('applies nothing when one check fails, and names that check', async () => {
    const before = await get(app, ['at/a', 'at/b', 'at/c']);
    const res = await commit(app, {
      checks: [{ key: 'at/a', versionstamp: before[0]!.versionstamp }, { key: 'at/b', versionstamp: null }],
      mutations: [{ type: 'set', key: 'at/a', value: 99 }, { type: 'set', key: 'at/c', value: 'c' }],
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ _tag: 'PlatformAppStorageCheckFailedError', message: expect.any(String), path: ['checks', 1], checkIndex: 1, key: 'at/b' });
    expect(await get(app, ['at/a', 'at/b', 'at/c'])).toEqual(before);
  });

  it('sums numbers (an absent key counts as 0), refuses a sum on a non-number, and applies mutations in order', async () => {
    const res = await commit(app, { mutations: [{ type: 'sum', key: 'sum/n', value: 2 }, { type: 'sum', key: 'sum/n', value: 0.5 }, { type: 'set', key: 'sum/s', value: 'x' }] });
    expect(res.status).toBe(200);
    expect((await get(app, ['sum/n']))[0]!.value).toBe(2.5);
    const bad = await commit(app, { mutations: [{ type: 'sum', key: 'sum/n', value: 1 }, { type: 'sum', key: 'sum/s', value: 1 }] });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ _tag: 'PlatformAppStorageNotANumberError', key: 'sum/s', path: ['mutations', 1] });
    expect((await get(app, ['sum/n']))[0]!.value).toBe(2.5);
  });

  it('lets exactly one of two racing commits on the same check win', async () => {
    const base = await commit(app, { mutations: [{ type: 'set', key: 'race/a', value: 0 }] });
    const attempt = (n: number) => commit(app, { checks: [{ key: 'race/a', versionstamp: base.body.versionstamp }], mutations: [{ type: 'set', key: 'race/a', value: n }] });
    const results = await Promise.all([1, 2, 3, 4].map(attempt));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = results.findIndex((r) => r.status === 200) + 1;
    expect((await get(app, ['race/a']))[0]!.value).toBe(winner);
  });

  it('refuses write skew: two commits each checking the other\'s key absent cannot both apply', async () => {
    const one = commit(app, { checks: [{ key: 'skew/b', versionstamp: null }], mutations: [{ type: 'set', key: 'skew/a', value: 1 }] });
    const two = commit(app, { checks: [{ key: 'skew/a', versionstamp: null }], mutations: [{ type: 'set', key: 'skew/b', value: 1 }] });
    const statuses = (await Promise.all([one, two])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
  });
});

describe('isolation', () => {
  it('another app, the development install and another workspace each see only their own space', async () => {
    const other = await w.installApp([], 'Other');
    const dev = await w.devApp([]);
    await commit(app, { mutations: [{ type: 'set', key: 'iso/k', value: 'mine' }] });
    for (const on of [other, dev]) {
      expect((await get(on, ['iso/k']))[0]!.value).toBeNull();
      expect((await list(on, { prefix: 'iso/' })).entries).toEqual([]);
      await commit(on, { mutations: [{ type: 'set', key: 'iso/k', value: on.appId }] });
    }
    expect((await get(app, ['iso/k']))[0]!.value).toBe('mine');
    expect((await get(dev, ['iso/k']))[0]!.value).toBe(dev.appId);
    // A token of this app for another workspace's install reaches nothing of this one: the space is the token's workspace.
    const foreignToken = (await w.stack.controlPlane.tokens.mint('install', { installId: app.installId, appId: app.appId, workspaceId: w.foreign.workspace.id })).token;
    const foreign = await w.stack.v0(foreignToken).post('/storage/get', { keys: ['iso/k'] });
    expect(foreign.status).not.toBe(200);
  });
});

describe('usage (keys and bytes a space keeps, what the quotas count)', () => {
  it('follows every kind of commit: a first write creates the space, same-size overwrites change nothing, set and delete in one commit, a delete of an absent key', async () => {
    const u = await w.installApp([], 'Usage');
    const usage = async () => (await w.stack.db.query<{ keys: number; bytes: string }>(
      'select keys, bytes from app_storage_spaces where app_id = $1', [u.appId])).rows.map((r) => ({ keys: r.keys, bytes: Number(r.bytes) }));
    const ok = async (body: unknown) => {
      const res = await commit(u, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    expect(await usage()).toEqual([]);
    // "ab" + '"xy"': 2 + 4 bytes.
    await ok({ mutations: [{ type: 'set', key: 'ab', value: 'xy' }] });
    expect(await usage()).toEqual([{ keys: 1, bytes: 6 }]);
    await ok({ mutations: [{ type: 'set', key: 'ab', value: 'zz' }] });
    expect(await usage()).toEqual([{ keys: 1, bytes: 6 }]);
    await ok({ mutations: [{ type: 'set', key: 'ab', value: 'longer' }] });
    expect(await usage()).toEqual([{ keys: 1, bytes: 10 }]);
    // A new key and a delete in one commit; a delete of a key that is not there changes nothing.
    await ok({ mutations: [{ type: 'set', key: 'cd', value: 1 }, { type: 'delete', key: 'ab' }, { type: 'delete', key: 'none' }] });
    expect(await usage()).toEqual([{ keys: 1, bytes: 3 }]);
    await ok({ mutations: [{ type: 'delete', key: 'cd' }] });
    expect(await usage()).toEqual([{ keys: 0, bytes: 0 }]);
    // What was written is what is read.
    expect((await get(u, ['ab', 'cd'])).map((e) => e.value)).toEqual([null, null]);
  });
});

describe('operator metrics', () => {
  it('count operations, bytes, conflicts and refusals per app', async () => {
    const m = await w.installApp([], 'Measured');
    await get(m, ['x']);
    await commit(m, { mutations: [{ type: 'set', key: 'ab', value: 'xy' }] });
    await commit(m, { checks: [{ key: 'ab', versionstamp: null }], mutations: [{ type: 'delete', key: 'ab' }] });
    await commit(m, { mutations: [{ type: 'set', key: 'k'.repeat(513), value: 1 }] });
    const text = await w.stack.controlPlane.registry.metrics();
    const value = (metric: string, labels: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${metric}{`) && l.includes(`app="${m.appId}"`) && l.includes(labels));
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    expect(value('platform_storage_operations_total', 'op="get"')).toBe(1);
    expect(value('platform_storage_operations_total', 'op="commit"')).toBe(2);
    expect(value('platform_storage_bytes_written_total', '')).toBe(2 + 4);
    expect(value('platform_storage_conflicts_total', '')).toBe(1);
    expect(value('platform_storage_refusals_total', 'limit="keyBytes"')).toBe(1);
  });
});
