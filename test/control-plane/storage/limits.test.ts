/**
 * Every limit of app storage (LIMITS.storage) at its boundary and one past it, over real HTTP and
 * Postgres: the boundary applies, one past answers its tagged error (`limit`, `max`, `path`) and
 * changes nothing. The per-install quotas are approached by setting the space's usage row (filling
 * 64 MB through the API would only test patience), then crossed through the API.
 */
import { LIMITS } from '@platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboxWorld, type InboxWorld, type Installed } from '../notifications/setup.ts';

const L = LIMITS.storage;
let w: InboxWorld;
let app: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  app = await w.installApp([], 'Limits');
});
afterAll(async () => {
  await w?.stop();
});

const post = async (path: string, body: unknown, on: Installed = app) => (await on.api()).post(path, body);
const set = (key: string, value: unknown, extra: Record<string, unknown> = {}) => ({ type: 'set', key, value, ...extra });
const refusedWith = (res: { status: number; body: any }, limit: string, path?: unknown[]) => {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(422);
  expect(res.body).toMatchObject({ _tag: 'PlatformAppStorageLimitExceededError', limit, max: (L as Record<string, unknown>)[limit], ...(path ? { path } : {}) });
};
const valueOf = async (key: string) => (await post('/storage/get', { keys: [key] })).body.entries[0].value;

describe('sizes', () => {
  it(`keys: ${L.keyBytes} UTF-8 bytes apply, one more is refused (multi-byte characters count in bytes)`, async () => {
    const atLimit = 'k'.repeat(L.keyBytes - 2) + 'é';
    expect((await post('/storage/commit', { mutations: [set(atLimit, 1)] })).status).toBe(200);
    refusedWith(await post('/storage/commit', { mutations: [set(atLimit + 'k', 1)] }), 'keyBytes', ['mutations', 0, 'key']);
    refusedWith(await post('/storage/get', { keys: ['a', atLimit + 'k'] }), 'keyBytes', ['keys', 1]);
    refusedWith(await post('/storage/list', { prefix: atLimit + 'k' }), 'keyBytes', ['prefix']);
    refusedWith(await post('/storage/commit', { checks: [{ key: atLimit + 'k', versionstamp: null }], mutations: [] }), 'keyBytes', ['checks', 0, 'key']);
  });

  it(`values: ${L.valueBytes} bytes of compact JSON apply, one more is refused`, async () => {
    const atLimit = 'v'.repeat(L.valueBytes - 2); // the quotes make it L.valueBytes
    expect((await post('/storage/commit', { mutations: [set('size/v', atLimit)] })).status).toBe(200);
    refusedWith(await post('/storage/commit', { mutations: [set('size/v2', atLimit + 'v')] }), 'valueBytes', ['mutations', 0, 'value']);
    expect(await valueOf('size/v2')).toBeNull();
  });

  it(`a commit's keys and values: ${L.commitBytes} bytes together apply, one more is refused`, async () => {
    const full = L.valueBytes - 2;
    const mutations = Array.from({ length: 12 }, (_, i) => set(`cb/${String(i).padStart(2, '0')}`, 'x'.repeat(full)));
    const used = 12 * (5 + L.valueBytes);
    const last = L.commitBytes - used - 5 - 2;
    expect((await post('/storage/commit', { mutations: [...mutations, set('cb/12', 'x'.repeat(last))] })).status).toBe(200);
    refusedWith(await post('/storage/commit', { mutations: [...mutations, set('cb/13', 'x'.repeat(last + 1))] }), 'commitBytes');
    expect(await valueOf('cb/13')).toBeNull();
  });
});

describe('counts', () => {
  it(`reads: ${L.keysPerGetMany} keys apply, one more is refused`, async () => {
    const keys = Array.from({ length: L.keysPerGetMany }, (_, i) => `g/${i}`);
    expect((await post('/storage/get', { keys })).status).toBe(200);
    refusedWith(await post('/storage/get', { keys: [...keys, 'g/x'] }), 'keysPerGetMany', ['keys']);
  });

  it(`checks: ${L.checksPerCommit} apply, one more is refused`, async () => {
    const checks = Array.from({ length: L.checksPerCommit }, (_, i) => ({ key: `c/${i}`, versionstamp: null }));
    expect((await post('/storage/commit', { checks, mutations: [set('c/done', 1)] })).status).toBe(200);
    refusedWith(await post('/storage/commit', { checks: [...checks, { key: 'c/x', versionstamp: null }], mutations: [set('c/over', 1)] }), 'checksPerCommit', ['checks']);
    expect(await valueOf('c/over')).toBeNull();
  });

  it(`mutations: ${L.mutationsPerCommit} apply, one more is refused`, async () => {
    const mutations = Array.from({ length: L.mutationsPerCommit }, (_, i) => set(`m/${i}`, i));
    expect((await post('/storage/commit', { mutations })).status).toBe(200);
    refusedWith(await post('/storage/commit', { mutations: [...mutations, set('m/over', 1)] }), 'mutationsPerCommit', ['mutations']);
    expect(await valueOf('m/over')).toBeNull();
  });

  it(`list pages: ${L.listLimitMax} apply, one more is refused`, async () => {
    expect((await post('/storage/list', { limit: L.listLimitMax })).status).toBe(200);
    refusedWith(await post('/storage/list', { limit: L.listLimitMax + 1 }), 'listLimitMax', ['limit']);
  });

  it(`expiry: between ${L.expireInMinMs} ms and ${L.expireInMaxMs} ms`, async () => {
    expect((await post('/storage/commit', { mutations: [set('e/min', 1, { expireIn: L.expireInMinMs }), set('e/max', 1, { expireIn: L.expireInMaxMs })] })).status).toBe(200);
    refusedWith(await post('/storage/commit', { mutations: [set('e/a', 1, { expireIn: L.expireInMinMs - 1 })] }), 'expireInMinMs', ['mutations', 0, 'expireIn']);
    refusedWith(await post('/storage/commit', { mutations: [set('e/b', 1, { expireIn: L.expireInMaxMs + 1 })] }), 'expireInMaxMs', ['mutations', 0, 'expireIn']);
  });
});

describe('quotas per install', () => {
  const usage = async (on: Installed) => (await w.stack.db.query<{ keys: number; bytes: number }>(
    `select keys, bytes from app_storage_spaces where app_id = $1 and workspace_id = $2 and kind = 'workspace'`, [on.appId, on.workspaceId])).rows[0]!;
  const setUsage = (on: Installed, keys: number, bytes: number) => w.stack.db.query(
    `update app_storage_spaces set keys = $3, bytes = $4 where app_id = $1 and workspace_id = $2 and kind = 'workspace'`, [on.appId, on.workspaceId, keys, bytes]);
  const quota = (res: { status: number; body: any }, limit: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppStorageQuotaExceededError', limit, max: (L as Record<string, unknown>)[limit] });
  };

  it('counts keys and bytes as entries come and go', async () => {
    const q = await w.installApp([], 'Counted');
    await post('/storage/commit', { mutations: [set('ab', 'xy'), set('c', 1)] }, q);
    expect(await usage(q)).toEqual({ keys: 2, bytes: 2 + 4 + 1 + 1 });
    await post('/storage/commit', { mutations: [{ type: 'delete', key: 'ab' }, set('c', 12)] }, q);
    expect(await usage(q)).toEqual({ keys: 1, bytes: 1 + 2 });
  });

  it(`keys: the ${L.keysPerInstall}th applies, one more is refused; overwriting and deleting still work`, async () => {
    const q = await w.installApp([], 'Keys');
    await post('/storage/commit', { mutations: [set('first', 1)] }, q);
    await setUsage(q, L.keysPerInstall - 1, 100);
    expect((await post('/storage/commit', { mutations: [set('last', 1)] }, q)).status).toBe(200);
    quota(await post('/storage/commit', { mutations: [set('over', 1)] }, q), 'keysPerInstall');
    expect(await valueOf('over')).toBeNull();
    expect((await post('/storage/commit', { mutations: [set('first', 2)] }, q)).status).toBe(200);
    expect((await post('/storage/commit', { mutations: [{ type: 'delete', key: 'first' }] }, q)).status).toBe(200);
    expect((await usage(q)).keys).toBe(L.keysPerInstall - 1);
  });

  it(`bytes: up to ${L.bytesPerInstall} apply, one more is refused`, async () => {
    const q = await w.installApp([], 'Bytes');
    await post('/storage/commit', { mutations: [set('seed', 1)] }, q);
    await setUsage(q, 1, L.bytesPerInstall - 10);
    // 'k1' + '"abcdef"' = 2 + 8 = 10 bytes: exactly at the quota.
    expect((await post('/storage/commit', { mutations: [set('k1', 'abcdef')] }, q)).status).toBe(200);
    quota(await post('/storage/commit', { mutations: [set('k2', 1)] }, q), 'bytesPerInstall');
    expect((await usage(q)).bytes).toBe(L.bytesPerInstall);
  });
});

describe('operations per second per install', () => {
  it(`${L.operationsPerSecondPerInstall} a second apply, one more answers 429 with retry-after; another install is not counted`, async () => {
    const q = await w.installApp([], 'Busy');
    const key = `rl:storage:${q.appId}:${q.workspaceId}:workspace`;
    // All but one of the second's operations counted straight on the limiter, the last through the API.
    for (let i = 0; i < L.operationsPerSecondPerInstall - 1; i += 500) {
      await Promise.all(Array.from({ length: Math.min(500, L.operationsPerSecondPerInstall - 1 - i) }, () => w.stack.kv.hit(key, L.operationsPerSecondPerInstall, 1000)));
    }
    expect((await post('/storage/get', { keys: ['a'] }, q)).status).toBe(200);
    const over = await post('/storage/get', { keys: ['a'] }, q);
    expect(over.status).toBe(429);
    expect(over.body._tag).toBe('PlatformApiRateLimitExceededError');
    expect(over.headers.get('retry-after')).toBe('1');
    expect((await post('/storage/get', { keys: ['a'] }, app)).status).toBe(200);
    w.stack.clock.advance(1_000);
    expect((await post('/storage/get', { keys: ['a'] }, q)).status).toBe(200);
  });
});
