/**
 * The opened environments kept in memory for hosted deliveries (apps/env-vars/cache.ts): read once,
 * dropped on every replica when a value changes, never kept from a read that overlapped a change,
 * kept only while subscribed and at most their time to live. And through the service: a change
 * made with the API is what the next delivery gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createMemoryKv, type Kv } from '@platform/control-plane';
import { createEnvironmentCache, type Environment } from '../../../control-plane/src/apps/env-vars/cache.ts';
import { createInvalidation } from '../../../control-plane/src/core/invalidation/invalidation.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { createApp } from './helpers.ts';

const env = (value: string): Environment => ({ env: { A: value }, secretEnvKeys: [] });
/** The memory store delivers messages on a later turn, like Redis. */
const delivered = () => new Promise((resolve) => setImmediate(resolve));
/** A replica's cache: its own invalidation seam on the shared store, as each process has. */
const replica = (kv: Kv, clock: ReturnType<typeof createManualClock>) => createEnvironmentCache({ invalidation: createInvalidation({ kv }), clock });

describe('environment cache', () => {
  it('reads once and serves from memory until its time to live passes', async () => {
    const clock = createManualClock();
    const cache = createEnvironmentCache({ invalidation: createInvalidation({ kv: createMemoryKv({ clock }) }), clock, ttlMs: 60_000 });
    let loads = 0;
    const load = async () => env(String(++loads));
    expect((await cache.get('app_1', 'production', load)).env.A).toBe('1');
    expect((await cache.get('app_1', 'production', load)).env.A).toBe('1');
    expect((await cache.get('app_1', 'preview', load)).env.A).toBe('2');
    clock.advance(60_000);
    expect((await cache.get('app_1', 'production', load)).env.A).toBe('3');
  });

  it('drops an entry on every replica when it changes', async () => {
    const clock = createManualClock();
    const kv = createMemoryKv({ clock });
    const [a, b] = [replica(kv, clock), replica(kv, clock)];
    let value = 'old';
    const load = async () => env(value);
    expect((await a.get('app_1', 'production', load)).env.A).toBe('old');
    expect((await b.get('app_1', 'production', load)).env.A).toBe('old');
    value = 'new';
    await a.changed('app_1', 'production');
    expect((await a.get('app_1', 'production', load)).env.A).toBe('new');
    await delivered();
    expect((await b.get('app_1', 'production', load)).env.A).toBe('new');
  });

  it('does not keep a read that overlapped a change', async () => {
    const clock = createManualClock();
    const kv = createMemoryKv({ clock });
    const [a, b] = [replica(kv, clock), replica(kv, clock)];
    let value = 'old';
    // b reads the old value; the change is committed and announced before b's read returns.
    const first = await b.get('app_1', 'production', async () => {
      const read = env(value);
      value = 'new';
      await a.changed('app_1', 'production');
      await delivered();
      return read;
    });
    expect(first.env.A).toBe('old');
    expect((await b.get('app_1', 'production', async () => env(value))).env.A).toBe('new');
  });

  it('keeps nothing without a subscription to changes', async () => {
    const clock = createManualClock();
    const kv: Kv = { ...createMemoryKv({ clock }), subscribe: () => Promise.reject(new Error('no redis')) };
    const cache = replica(kv, clock);
    let loads = 0;
    const load = async () => env(String(++loads));
    await cache.get('app_1', 'production', load);
    expect((await cache.get('app_1', 'production', load)).env.A).toBe('2');
  });
});

describe('environment of deliveries', () => {
  let stack: Stack;
  let ws: CreatedWorkspace;
  beforeAll(async () => {
    stack = await startStack();
    ws = await stack.createWorkspace();
  });
  afterAll(async () => stack.stop());

  it('follows every change made through the API', async () => {
    const { app } = await createApp(ws.client);
    const environment = () => stack.controlPlane.apps.envVars.environmentFor(app.id, 'production');
    expect(await environment()).toEqual({ env: {}, secretEnvKeys: [] });
    await stack.v0(ws.apiKey).put(`/apps/${app.id}/env/production/API_TOKEN`, { value: 'tok-1' });
    expect(await environment()).toEqual({ env: { API_TOKEN: 'tok-1' }, secretEnvKeys: ['API_TOKEN'] });
    await stack.v0(ws.apiKey).put(`/apps/${app.id}/env/production/API_TOKEN`, { value: 'tok-2' });
    await stack.v0(ws.apiKey).put(`/apps/${app.id}/env/production/REGION`, { value: 'eu', secret: false });
    expect(await environment()).toEqual({ env: { API_TOKEN: 'tok-2', REGION: 'eu' }, secretEnvKeys: ['API_TOKEN'] });
    await stack.v0(ws.apiKey).delete(`/apps/${app.id}/env/production/API_TOKEN`);
    expect(await environment()).toEqual({ env: { REGION: 'eu' }, secretEnvKeys: [] });
  });
});
