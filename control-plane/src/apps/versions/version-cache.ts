/**
 * @module apps/versions/version-cache
 * What is derived from an app version (its manifest's block types, compiled schemas, search kinds)
 * kept per `appId@version`: versions never change once written, so an entry stays true for good and
 * only memory bounds the cache (the least recently used entry is dropped first). The promise is
 * cached, so concurrent first reads share one load; a load that fails is forgotten, so the next
 * call tries again.
 */

export interface VersionCache<T> {
  /** The value for a version, loaded on first use. */
  get(appId: string, version: number): Promise<T>;
  /** Puts a value already at hand (e.g. computed while the version was accepted). */
  set(appId: string, version: number, value: T): void;
}

/**
 * @example
 * const kinds = createVersionCache((appId, version) => loadKinds(db, appId, version), 256);
 * await kinds.get('app_1', 3);
 */
export function createVersionCache<T>(load: (appId: string, version: number) => Promise<T>, max = 256): VersionCache<T> {
  const cache = new Map<string, Promise<T>>();
  const touch = (key: string, value: Promise<T>): void => {
    cache.delete(key);
    cache.set(key, value);
    while (cache.size > max) cache.delete(cache.keys().next().value!);
  };
  return {
    get(appId, version) {
      const key = `${appId}@${version}`;
      const hit = cache.get(key);
      if (hit !== undefined) {
        touch(key, hit);
        return hit;
      }
      const loading = load(appId, version);
      loading.catch(() => {
        if (cache.get(key) === loading) cache.delete(key);
      });
      touch(key, loading);
      return loading;
    },
    set(appId, version, value) {
      touch(`${appId}@${version}`, Promise.resolve(value));
    },
  };
}
