/**
 * @module messaging/references/service
 * The app's side of references (`references:write`):
 *
 * - `PUT /v0/references` pushes fields for `(kind, externalId)` with a `version`. The record is
 *   the one every occurrence shares, so one push reaches them all. A push whose version is not
 *   above the stored one is not applied (`applied: false` with the stored `version`). A null
 *   removes an optional field; a `block` is checked against the catalog like any tree, and its images
 *   (and an `icon` URL) are copied (docs/decisions/assets.md). A push for
 *   an object no link resolved to yet creates its record (docs/decisions/references.md).
 * - `POST /v0/references/revalidate` marks the record stale: its next view sends
 *   `reference.resolve` again (`scheduled: false` when there is no such record).
 *
 * The kind must be one of the installed version's reference kinds.
 */
import { invalidRequest, type ReferencePushRequest } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { requireScope } from '../../apps/guards/index.ts';
import type { ImageCopier } from '../../apps/assets/copy.ts';
import { checkTree } from '../../deliveries/interactive/tree-check.ts';
import { copyReferenceImages } from './images.ts';
import { kindUnknown, type SearchKinds } from '../search/kinds.ts';
import { applyPush, findRecord, markStale } from './store.ts';

export interface ReferencesService {
  push(caller: InstallCaller, body: ReferencePushRequest): Promise<{ applied: boolean; version: number }>;
  revalidate(caller: InstallCaller, body: { kind: string; externalId: string }): Promise<{ scheduled: boolean }>;
}

export function createReferencesService(deps: { db: Db; clock: Clock; kinds: SearchKinds; images: ImageCopier }): ReferencesService {
  const { db } = deps;

  async function assertKind(caller: InstallCaller, kind: string): Promise<void> {
    if (!(await deps.kinds.ofInstall(caller)).has(kind)) throw kindUnknown(kind);
  }

  return {
    async push(caller, body) {
      requireScope(caller, 'references:write');
      await assertKind(caller, body.kind);
      const block = body.fields.block;
      if (block != null) {
        const checked = checkTree(block.tree, block.actions);
        if (!checked.ok) throw invalidRequest([{ path: ['fields', 'block', 'tree', ...checked.path], message: checked.message, code: 'invalid_tree' }]);
      }
      const copied = await copyReferenceImages(deps.images, body.fields);
      if (!copied.ok) throw invalidRequest([{ path: ['fields', ...copied.path], message: copied.message, code: 'image_not_copied' }]);
      const set: Record<string, unknown> = {};
      const unset: string[] = [];
      for (const [name, value] of Object.entries(copied.fields)) {
        if (value === null) unset.push(name);
        else if (value !== undefined) set[name] = value;
      }
      const where = { installId: caller.installId, kind: body.kind, externalId: body.externalId };
      const applied = await applyPush(db, { ...where, set, unset, version: body.version, at: new Date(deps.clock.now()) });
      if (applied !== undefined) return { applied: true, version: body.version };
      const kept = await findRecord(db, where.installId, where.kind, where.externalId);
      return { applied: false, version: Number(kept?.version ?? body.version) };
    },

    async revalidate(caller, body) {
      requireScope(caller, 'references:write');
      await assertKind(caller, body.kind);
      return { scheduled: await markStale(db, caller.installId, body.kind, body.externalId, new Date(deps.clock.now())) };
    },
  };
}
