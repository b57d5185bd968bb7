// The per-version cache behind block definitions, compiled schemas and search kinds
// (control-plane/src/apps/versions/version-cache.ts): one load per version, failures forgotten, LRU bound.
import { describe, expect, it } from 'vitest';
import { createVersionCache } from '../../../control-plane/src/apps/versions/version-cache.ts';

function counting(fail: Set<string> = new Set()) {
  const calls: string[] = [];
  const load = async (appId: string, version: number): Promise<string> => {
    const key = `${appId}@${version}`;
    calls.push(key);
    if (fail.has(key)) throw new Error(`no ${key}`);
    return `value of ${key}`;
  };
  return { calls, load };
}

describe('version cache', () => {
  it('loads a version once, also for concurrent first reads', async () => {
    const { calls, load } = counting();
    const cache = createVersionCache(load);
    const [a, b] = await Promise.all([cache.get('app_1', 1), cache.get('app_1', 1)]);
    expect(a).toBe('value of app_1@1');
    expect(b).toBe(a);
    await cache.get('app_1', 1);
    expect(calls).toEqual(['app_1@1']);
  });

  it('forgets a failed load, so the next read tries again', async () => {
    const fail = new Set(['app_1@2']);
    const { calls, load } = counting(fail);
    const cache = createVersionCache(load);
    await expect(cache.get('app_1', 2)).rejects.toThrow('no app_1@2');
    fail.clear();
    await expect(cache.get('app_1', 2)).resolves.toBe('value of app_1@2');
    expect(calls).toEqual(['app_1@2', 'app_1@2']);
  });

  it('drops the least recently used version past its size, and keeps values set directly', async () => {
    const { calls, load } = counting();
    const cache = createVersionCache(load, 2);
    cache.set('app_1', 1, 'given');
    await cache.get('app_1', 2);
    await cache.get('app_1', 1); // app_1@1 is now the most recently used
    await cache.get('app_1', 3); // evicts app_1@2
    expect(await cache.get('app_1', 1)).toBe('given');
    await cache.get('app_1', 2);
    expect(calls).toEqual(['app_1@2', 'app_1@3', 'app_1@2']);
  });
});
