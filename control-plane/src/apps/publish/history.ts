/**
 * @module apps/publish/history
 * An app's versions as its developer sees them (`GET /v0/apps/{app_id}/versions`, one with its
 * manifest at `…/versions/{version}`) and rolling production back (`POST /v0/apps/{app_id}/rollback`).
 *
 * A rollback does not move a pointer: it records a new production version that copies an earlier
 * production version's manifest and bundle (`rollbackOf`), through the same `accept` as any publish.
 * So the manifest is validated again with what the service knows now (an env var deleted since
 * fails it), and installs follow the consent rules of a publish: an install moves when the copy
 * adds no access over the version it runs, and otherwise stays put with `app.reconsentRequired`.
 * Version numbers only grow, so every delivery's `app.version` still says which code answered.
 */
import { PlatformError, accessWidening } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { iso } from '../../core/http/common.ts';
import { deployableApp, manageableApp, type ToolingCaller } from '../guards/access.ts';
import * as store from '../versions/store.ts';
import type { VersionDetail, VersionList, VersionRecord } from './schemas.ts';
import type { PublishService } from './service.ts';

const conflict = (message: string) => new PlatformError('PlatformApiConflictError', message, { path: ['version'] });

/** Each row's additions over the production version before it; `older` is the production version before the page. */
function additions(rows: readonly store.VersionRow[], older: store.VersionRow | undefined): Map<number, Array<{ kind: string; detail: string }>> {
  const out = new Map<number, Array<{ kind: string; detail: string }>>();
  // Oldest first, so the production version before each row is known when it is reached.
  let before = older;
  for (const row of [...rows].reverse()) {
    out.set(row.version, before === undefined ? [] : accessWidening(before.manifest, row.manifest).map((a) => ({ kind: a.kind, detail: a.detail })));
    if (row.target === 'production') before = row;
  }
  return out;
}

type Summary = VersionList['items'][number];

function summary(row: store.VersionRow, added: Summary['added'], liveVersion: number | undefined): Summary {
  return {
    version: row.version, target: row.target, manifestSha256: row.manifest_hash, createdAt: iso(row.created_at),
    bundle: store.bundleOf(row),
    added, rollbackOf: row.rollback_of ?? null, live: row.version === liveVersion,
  };
}

export type VersionHistoryService = ReturnType<typeof createVersionHistoryService>;

export function createVersionHistoryService(deps: { db: Db; versions: Pick<PublishService, 'accept' | 'record'> }) {
  const { db } = deps;

  return {
    async list(caller: ToolingCaller, appId: string, query: { limit: number; before?: number | undefined }): Promise<VersionList> {
      const app = await manageableApp(db, caller, appId);
      const rows = await store.listVersions(db, app.id, query.limit + 1, query.before);
      const page = rows.slice(0, query.limit);
      const oldest = page.at(-1);
      const older = oldest === undefined ? undefined : await store.productionBefore(db, app.id, oldest.version);
      const live = await store.latestVersion(db, app.id, 'production');
      const added = additions(page, older);
      return {
        appId: app.id,
        items: page.map((row) => summary(row, added.get(row.version) ?? [], live?.version)),
        nextBefore: rows.length > query.limit && oldest !== undefined ? oldest.version : null,
      };
    },

    /** One version as `list` shows it, with the manifest it was accepted with. */
    async one(caller: ToolingCaller, appId: string, version: number): Promise<VersionDetail> {
      const app = await manageableApp(db, caller, appId);
      const row = await store.findVersion(db, app.id, version);
      if (row === undefined) throw new PlatformError('PlatformApiNotFoundError', `The app has no version ${version}`, { path: ['version'] });
      const [older, live] = await Promise.all([store.productionBefore(db, app.id, row.version), store.latestVersion(db, app.id, 'production')]);
      return { appId: app.id, ...summary(row, additions([row], older).get(row.version) ?? [], live?.version), manifest: row.manifest };
    },

    /** Production back to `version` (default: the production version before the live one). */
    async rollback(caller: ToolingCaller, appId: string, input: { version?: number | undefined }): Promise<VersionRecord> {
      const app = await deployableApp(db, caller, appId, 'production');
      const live = await store.latestVersion(db, app.id, 'production');
      if (live === undefined) throw conflict('The app has no production version yet: there is nothing to roll back');
      const earlier = input.version === undefined ? await store.productionBefore(db, app.id, live.version) : await store.findVersion(db, app.id, input.version);
      if (earlier === undefined) {
        if (input.version === undefined) throw conflict(`Version ${live.version} is the app's first production version: there is none before it`);
        throw new PlatformError('PlatformApiNotFoundError', `The app has no version ${input.version}`, { path: ['version'] });
      }
      if (earlier.target !== 'production') throw conflict(`Version ${earlier.version} is a preview: rollback serves an earlier production version again`);
      if (earlier.version === live.version) throw conflict(`Version ${earlier.version} is the live production version already`);
      // The copy runs the earlier version's bundle with the source map it was uploaded with.
      const bundle = store.bundleOf(earlier);
      const accepted = await deps.versions.accept(app, 'production', earlier.manifest, bundle, { rollbackOf: earlier.version });
      return deps.versions.record(accepted);
    },
  };
}
