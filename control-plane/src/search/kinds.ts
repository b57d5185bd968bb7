/**
 * @module search/kinds
 * The reference kinds of the version an install runs, and whether each has search (`searchable` in
 * the manifest). Versions never change once written, so the answer is kept per `appId@version`
 * (least recently used dropped first) and a version's manifest is read once, not on every upsert
 * of a bulk sync.
 */
import type { Manifest } from '@platform/sandbox-lib';
import type { Db } from '../db/db.ts';
import { findVersion } from '../versions/store.ts';
import { createVersionCache } from '../versions/version-cache.ts';

/** Kind → searchable, for one app version. */
export type VersionKinds = ReadonlyMap<string, boolean>;

export interface SearchKinds {
  of(appId: string, version: number): Promise<VersionKinds>;
}

/**
 * @example
 * const kinds = createSearchKinds({ db });
 * (await kinds.of(appId, 3)).get('issue'); // true | false | undefined (no such kind)
 */
export function createSearchKinds(deps: { db: Db; max?: number }): SearchKinds {
  const cache = createVersionCache(async (appId, version): Promise<VersionKinds> => {
    const row = await findVersion(deps.db, appId, version);
    const references = (row?.manifest as Manifest | undefined)?.references ?? [];
    return new Map(references.map((r) => [r.kind, r.searchable === true]));
  }, deps.max);
  return { of: (appId, version) => cache.get(appId, version) };
}
