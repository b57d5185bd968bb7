/**
 * @module messaging/search/kinds
 * The reference kinds of the version an install runs, and whether each has search (`searchable` in
 * the manifest). Versions never change once written, so the answer is kept per `appId@version`
 * (least recently used dropped first) and a version's manifest is read once, not on every upsert
 * of a bulk sync.
 */
import { PlatformError, type Manifest } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { installRevoked } from '../../apps/guards/index.ts';
import { findVersion } from '../../apps/versions/store.ts';
import { createVersionCache } from '../../apps/versions/version-cache.ts';
import { installVersion } from './store.ts';

/** Kind → searchable, for one app version. */
export type VersionKinds = ReadonlyMap<string, boolean>;

export interface SearchKinds {
  of(appId: string, version: number): Promise<VersionKinds>;
  /** The kinds of the version an install runs now (search objects and reference pushes); a missing install is revoked. */
  ofInstall(caller: { installId: string; appId: string }): Promise<VersionKinds>;
}

/** The 422 for a kind the installed version does not declare. */
export const kindUnknown = (kind: string): PlatformError =>
  new PlatformError('PlatformAppReferenceKindUnknownError', `The installed version of this app has no reference kind "${kind}"`, { path: ['kind'] });

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
  return {
    of: (appId, version) => cache.get(appId, version),
    async ofInstall(caller) {
      const version = await installVersion(deps.db, caller.installId);
      if (version === undefined) throw installRevoked();
      return cache.get(caller.appId, version);
    },
  };
}
