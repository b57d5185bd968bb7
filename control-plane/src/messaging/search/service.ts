/**
 * @module messaging/search/service
 * `PUT` and `DELETE /v0/search/objects` for apps: an install adds, updates and removes its own
 * search objects (`search:write`). The kind must be a searchable reference kind of the version the
 * install runs; circles of a `{ circleIds }` visibility must all be within the install's reach
 * (404 listing every one that is not); an upsert older than the stored object is not applied and
 * answers the stored object with `applied: false`. Rules the spec leaves open:
 * docs/decisions/search.md.
 */
import { PlatformError, type SearchObjectPutRequest } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { requireScope } from '../../apps/guards/index.ts';
import { canReach } from '../../workspace/reach/reach.ts';
import { kindUnknown, type SearchKinds } from './kinds.ts';
import { circleReachFacts, deleteSearchObject, findSearchObject, upsertSearchObject, type SearchObjectFields, type SearchObjectRow } from './store.ts';

type Visibility = 'workspace' | { circleIds: string[] };

/**
 * The stored object as the spec names it (`body` is searched, never answered). A type alias, so it
 * fits the response schema's open object.
 */
export type StoredSearchObject = {
  kind: string;
  externalId: string;
  title: string;
  url: string;
  subtitle?: string;
  updatedAt: string;
  visibility: Visibility;
};

export interface SearchService {
  put(caller: InstallCaller, body: SearchObjectPutRequest): Promise<StoredSearchObject & { applied: boolean }>;
  remove(caller: InstallCaller, body: { kind: string; externalId: string }): Promise<{ deleted: boolean }>;
}

export interface SearchServiceDeps {
  db: Db;
  clock: Clock;
  kinds: SearchKinds;
}

// An upsert that lost to a newer copy reads that copy; a delete in between makes it try again.
const UPSERT_ATTEMPTS = 3;

/**
 * @example
 * const search = createSearchService({ db, clock, kinds: createSearchKinds({ db }) });
 * const stored = await search.put(auth, { kind: 'issue', externalId: '42', title: 'Crash', url, updatedAt, visibility: 'workspace' });
 */
export function createSearchService(deps: SearchServiceDeps): SearchService {
  const { db } = deps;

  async function assertSearchableKind(caller: InstallCaller, kind: string): Promise<void> {
    const searchable = (await deps.kinds.ofInstall(caller)).get(kind);
    if (searchable === undefined) throw kindUnknown(kind);
    if (!searchable) {
      throw new PlatformError('PlatformAppReferenceKindNotSearchableError', `The reference kind "${kind}" has no search in the installed version`, { path: ['kind'] });
    }
  }

  /** The circles once each, in the order sent; throws the spec's 404 listing every circle out of reach. */
  async function reachableCircles(caller: InstallCaller, circleIds: readonly string[]): Promise<string[]> {
    const unique = [...new Set(circleIds)];
    const facts = new Map((await circleReachFacts(db, caller.workspaceId, caller.appId, unique)).map((row) => [row.id, row]));
    const missing = unique.filter((id) => {
      const row = facts.get(id);
      return row === undefined || !canReach({
        installKind: caller.installKind,
        circle: { visibility: row.visibility, connected: row.connected, readOnly: row.read_only },
        appInvited: row.app_invited,
        developerIsMember: row.developer_is_member,
      });
    });
    if (missing.length > 0) {
      throw new PlatformError('PlatformAppCircleNotFoundError', 'Some circles are not in this workspace or not within the app\'s reach', {
        path: ['visibility', 'circleIds'], fields: { circleIds: missing },
      });
    }
    return unique;
  }

  return {
    async put(caller, body) {
      requireScope(caller, 'search:write');
      await assertSearchableKind(caller, body.kind);
      const circleIds = body.visibility === 'workspace' ? null : await reachableCircles(caller, body.visibility.circleIds);
      const object = {
        installId: caller.installId, workspaceId: caller.workspaceId, appId: caller.appId, kind: body.kind, externalId: body.externalId,
        title: body.title, url: body.url, subtitle: body.subtitle ?? null, body: body.body ?? null,
        updatedAt: new Date(body.updatedAt), circleIds, writtenAt: new Date(deps.clock.now()),
      };
      for (let attempt = 1; ; attempt++) {
        const written = await upsertSearchObject(db, object);
        if (written !== undefined) return { ...storedView(written), applied: true };
        const kept = await findSearchObject(db, caller.installId, body.kind, body.externalId);
        if (kept !== undefined) return { ...storedView(kept), applied: false };
        if (attempt >= UPSERT_ATTEMPTS) {
          throw new PlatformError('PlatformApiServiceUnavailableError', 'The object changed while it was being saved; try again');
        }
      }
    },

    async remove(caller, body) {
      requireScope(caller, 'search:write');
      return { deleted: await deleteSearchObject(db, caller.installId, body.kind, body.externalId) };
    },
  };
}

export function storedView(row: SearchObjectRow): StoredSearchObject {
  return {
    ...objectView(row),
    visibility: row.circle_ids === null ? 'workspace' : { circleIds: row.circle_ids },
  };
}

/** A search object's shown fields as the wire names them (the app's stored view and the member's result share them). */
export function objectView(row: SearchObjectFields): { kind: string; externalId: string; title: string; url: string; subtitle?: string; updatedAt: string } {
  return {
    kind: row.kind,
    externalId: row.external_id,
    title: row.title,
    url: row.url,
    ...(row.subtitle === null ? {} : { subtitle: row.subtitle }),
    updatedAt: row.updated_at.toISOString(),
  };
}
