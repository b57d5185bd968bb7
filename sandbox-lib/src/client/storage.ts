/**
 * @module client/storage
 * `ctx.storage` (and `api.storage`): the install's key-value storage over `/v0/storage/…`
 * (docs/decisions/storage.md). Keys are strings in UTF-8 byte order, values JSON, and every entry
 * carries the versionstamp of the commit that wrote it. `atomic()` builds a commit of checks and
 * mutations that applies all or nothing; a failed check is an answer (`{ ok: false, … }`), not a
 * throw, so optimistic loops read plainly. Inside a block action, `ctx.storage` carries the
 * interaction token: its writes are staged and commit with the action's result.
 */
import type { StorageEntry as WireEntry } from '../api/storage.ts';
import { isPlatformClientError } from './errors.ts';
import type { CallOptions, RouteBody, RouteResponse } from './request.ts';

type Caller = {
  <N extends 'storageGet' | 'storageList' | 'storageCommit'>(name: N, input: { body: RouteBody<N> }, options?: CallOptions): Promise<RouteResponse<N>>;
};

/** An entry as read; an absent key has `value: null` and `versionstamp: null`. */
export interface StorageEntry<T = unknown> {
  readonly key: string;
  readonly value: T | null;
  readonly versionstamp: string | null;
}

export interface StorageListOptions {
  /** Entries whose key starts with `prefix`. */
  prefix?: string;
  /** From `start` (inclusive)… */
  start?: string;
  /** …to `end` (exclusive). */
  end?: string;
  /** At most this many entries a page (default 100, at most 1,000). */
  limit?: number;
  reverse?: boolean;
  /** The `cursor` of the previous page. */
  cursor?: string;
}

export interface StorageListPage<T = unknown> {
  readonly entries: ReadonlyArray<{ readonly key: string; readonly value: T; readonly versionstamp: string }>;
  /** Null on the last page. */
  readonly cursor: string | null;
}

export type CommitResult = { ok: true; versionstamp: string } | { ok: false; checkIndex: number; key: string };

export interface AtomicOperation {
  /** Commit only if `key` is still at `versionstamp` (null: still absent). */
  check(key: string, versionstamp: string | null): AtomicOperation;
  set(key: string, value: unknown, options?: { expireIn?: number }): AtomicOperation;
  delete(key: string): AtomicOperation;
  /** Adds `n` to the number at `key` (absent counts as 0). */
  sum(key: string, n: number): AtomicOperation;
  /** Applies everything or nothing; a failed check answers `{ ok: false, checkIndex, key }`. */
  commit(): Promise<CommitResult>;
}

export interface StorageClient {
  get<T = unknown>(key: string): Promise<StorageEntry<T>>;
  getMany<T = unknown>(keys: readonly string[]): Promise<Array<StorageEntry<T>>>;
  set(key: string, value: unknown, options?: { expireIn?: number }): Promise<{ versionstamp: string }>;
  delete(key: string): Promise<{ versionstamp: string }>;
  sum(key: string, n: number): Promise<{ versionstamp: string }>;
  list<T = unknown>(options?: StorageListOptions): Promise<StorageListPage<T>>;
  atomic(): AtomicOperation;
}

type Mutation = RouteBody<'storageCommit'>['mutations'][number];
type Check = NonNullable<RouteBody<'storageCommit'>['checks']>[number];

/**
 * The storage methods over `call`, with `options` on every call (an interaction token, say).
 * @example
 * const { value, versionstamp } = await ctx.storage.get<number>('votes/total');
 * const res = await ctx.storage.atomic().check('votes/total', versionstamp).set('votes/total', (value ?? 0) + 1).commit();
 * if (!res.ok) return { notice: { tone: 'warning', text: 'Someone voted at the same time; try again' } };
 */
export function storageClient(call: Caller, options?: CallOptions): StorageClient {
  const commit = async (checks: Check[], mutations: Mutation[]): Promise<CommitResult> => {
    try {
      const res = await call('storageCommit', { body: { checks, mutations } }, options);
      return { ok: true, versionstamp: res.versionstamp };
    } catch (err) {
      if (isPlatformClientError(err) && err.tag === 'PlatformAppStorageCheckFailedError') {
        const body = err.body as { checkIndex?: unknown; key?: unknown } | undefined;
        return { ok: false, checkIndex: Number(body?.checkIndex), key: String(body?.key) };
      }
      throw err;
    }
  };
  const only = async (mutation: Mutation) => {
    // Without checks a commit cannot fail a check; anything else is thrown.
    const res = await commit([], [mutation]);
    return { versionstamp: res.ok ? res.versionstamp : '' };
  };
  const getMany = async <T>(keys: readonly string[]) =>
    (await call('storageGet', { body: { keys: [...keys] } }, options)).entries.map((e: WireEntry) => e as StorageEntry<T>);
  return {
    getMany,
    async get<T>(key: string) {
      return (await getMany<T>([key]))[0]!;
    },
    set: (key, value, o) => only({ type: 'set', key, value, ...(o?.expireIn === undefined ? {} : { expireIn: o.expireIn }) }),
    delete: (key) => only({ type: 'delete', key }),
    sum: (key, n) => only({ type: 'sum', key, value: n }),
    async list<T>(o: StorageListOptions = {}) {
      return (await call('storageList', { body: o }, options)) as StorageListPage<T>;
    },
    atomic() {
      const checks: Check[] = [];
      const mutations: Mutation[] = [];
      const op: AtomicOperation = {
        check(key, versionstamp) { checks.push({ key, versionstamp }); return op; },
        set(key, value, o) { mutations.push({ type: 'set', key, value, ...(o?.expireIn === undefined ? {} : { expireIn: o.expireIn }) }); return op; },
        delete(key) { mutations.push({ type: 'delete', key }); return op; },
        sum(key, n) { mutations.push({ type: 'sum', key, value: n }); return op; },
        commit: () => commit(checks, mutations),
      };
      return op;
    },
  };
}
