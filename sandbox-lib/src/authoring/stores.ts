/**
 * @module authoring/stores
 * What the delivery pipeline remembers between deliveries: the `webhook-id`s already handled
 * (a lifecycle delivery can arrive more than once) and the newest `version` handled per event
 * subject (order is not guaranteed). Both are interfaces, so an app running several replicas can
 * back them with a shared store; the in-memory defaults are bounded and drop the oldest entries.
 */

type MaybePromise<T> = T | Promise<T>;

export interface SeenStore {
  has(id: string): MaybePromise<boolean>;
  add(id: string): MaybePromise<void>;
}

export interface VersionStore {
  get(key: string): MaybePromise<number | undefined>;
  set(key: string, version: number): MaybePromise<void>;
}

/** A Map that forgets its oldest entries past `max` (insertion order; a write refreshes an entry). */
function boundedMap<V>(max: number): Map<string, V> & { put(key: string, value: V): void } {
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('max must be a positive integer');
  const map = new Map<string, V>() as Map<string, V> & { put(key: string, value: V): void };
  map.put = (key, value) => {
    map.delete(key);
    map.set(key, value);
    while (map.size > max) map.delete(map.keys().next().value as string);
  };
  return map;
}

/**
 * An in-memory seen-store remembering the last `max` ids (default 10,000).
 * @example defineApp({ ... }, { seen: createSeenStore({ max: 50_000 }) })
 */
export function createSeenStore(options: { max?: number } = {}): SeenStore {
  const ids = boundedMap<true>(options.max ?? 10_000);
  return { has: (id) => ids.has(id), add: (id) => ids.put(id, true) };
}

/**
 * An in-memory version store for the last `max` subjects (default 10,000).
 * @example defineApp({ ... }, { versions: createVersionStore() })
 */
export function createVersionStore(options: { max?: number } = {}): VersionStore {
  const versions = boundedMap<number>(options.max ?? 10_000);
  return { get: (key) => versions.get(key), set: (key, version) => versions.put(key, version) };
}
