/**
 * Member API keys are looked up once per replica and kept in memory (workspace/api-keys/cache.ts):
 * revoking a key through one control plane stops it on both at once, the revocation reaching the
 * other replica through core/invalidation (Redis pub/sub). Statements are counted on the shared
 * database to show the key is read once, not per request. Waits on the invalidation heard, never
 * on time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@platform/control-plane';
import { generateApiKey } from '../../../control-plane/src/core/crypto/api-keys.ts';
import { API_KEYS_TOPIC } from '../../../control-plane/src/workspace/api-keys/cache.ts';
import { startTwin, type Twin } from '../../helpers/fleet.ts';
import { describeWithService, postgresState, redisState } from '../../helpers/services.ts';
import { apiClient, startStack, type Stack } from '../../helpers/stack.ts';

const [pg, redis] = await Promise.all([postgresState(), redisState()]);
const both = pg.kind !== 'up' ? pg : redis;

/** Key lookups made on `db` while `fn` runs. */
async function keyReads(db: Db, fn: () => Promise<void>): Promise<number> {
  const query = db.query.bind(db);
  let reads = 0;
  db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('from api_keys k join members m')) reads++;
    return query(sql, params);
  }) as Db['query'];
  try {
    await fn();
  } finally {
    db.query = query;
  }
  return reads;
}

describeWithService('member API keys cached on two control planes', both, () => {
  let a: Stack;
  let b: Twin;

  beforeAll(async () => {
    a = await startStack({ db: 'postgres', kv: 'redis' });
    b = await startTwin(a);
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('reads a key once per replica, not on every request', async () => {
    const ws = await a.createWorkspace();
    const onB = apiClient(b.url, '/client/v1', ws.apiKey);
    const reads = await keyReads(a.db, async () => {
      for (let i = 0; i < 5; i++) {
        expect((await ws.client.get('/me')).status).toBe(200);
        expect((await onB.get('/me')).status).toBe(200);
      }
    });
    expect(reads).toBe(2);
  });

  it('a revoked key stops working on both replicas at once', async () => {
    const ws = await a.createWorkspace();
    const created = await ws.client.post('/api-keys', { name: 'Script' });
    expect(created.status).toBe(201);
    const onA = apiClient(a.url, '/client/v1', created.body.apiKey);
    const onB = apiClient(b.url, '/client/v1', created.body.apiKey);
    // Both replicas hold it now.
    expect((await onA.get('/me')).status).toBe(200);
    expect((await onB.get('/me')).status).toBe(200);

    let heard!: (key: string) => void;
    const next = new Promise<string>((resolve) => {
      heard = resolve;
    });
    const unsubscribe = await b.controlPlane.invalidation.onInvalidate(API_KEYS_TOPIC, (key) => {
      if (key !== null) heard(key);
    });
    try {
      expect((await ws.client.delete(`/api-keys/${created.body.key.id}`)).status).toBe(204);
      // The replica that revoked it refuses it with the revocation's answer.
      expect((await onA.get('/me')).status).toBe(401);
      expect(await next).toBe(created.body.key.id);
      expect((await onB.get('/me')).status).toBe(401);
    } finally {
      await unsubscribe();
    }
    // The workspace's other key is untouched.
    expect((await apiClient(b.url, '/client/v1', ws.apiKey).get('/me')).status).toBe(200);
  });

  it('a key created after a replica saw it unknown works there at once (unknown keys are not kept)', async () => {
    const ws = await a.createWorkspace();
    expect((await apiClient(b.url, '/client/v1', generateApiKey().key).get('/me')).status).toBe(401);
    const created = await ws.client.post('/api-keys', { name: 'Later' });
    expect((await apiClient(b.url, '/client/v1', created.body.apiKey).get('/me')).status).toBe(200);
  });
});

describe('without Redis (one process, the in-process store)', () => {
  it('a revoked key stops working at once', async () => {
    const stack = await startStack({ kv: 'memory' });
    try {
      const ws = await stack.createWorkspace();
      const created = await ws.client.post('/api-keys', { name: 'Script' });
      const client = apiClient(stack.url, '/client/v1', created.body.apiKey);
      expect((await client.get('/me')).status).toBe(200);
      expect((await ws.client.delete(`/api-keys/${created.body.key.id}`)).status).toBe(204);
      expect((await client.get('/me')).status).toBe(401);
    } finally {
      await stack.stop();
    }
  });
});
