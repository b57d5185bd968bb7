/**
 * @module apps/storage/admin
 * What a workspace's owners and admins see and do with app storage: the bytes and keys each app
 * keeps in the workspace (its workspace install's space; a development install's space is its
 * developer's), and the purge at once, which removes the space and everything in it.
 */
import { PlatformError } from '@platform/sdk';
import { requireAdmin, type Actor } from '../../core/auth/actor.ts';
import type { Db } from '../../core/db/db.ts';
import { purgeSpace } from './retention.ts';
import type { StorageUsage } from './schemas.ts';

export interface StorageAdmin {
  usage(actor: Actor): Promise<StorageUsage[]>;
  purge(actor: Actor, appId: string): Promise<void>;
}

export function createStorageAdmin(deps: { db: Db }): StorageAdmin {
  return {
    async usage(actor) {
      requireAdmin(actor, 'see how much data apps keep');
      const { rows } = await deps.db.query<{ app_id: string; name: string; keys: number; bytes: number; purge_after: Date | null }>(
        `select s.app_id, a.name, s.keys, s.bytes, s.purge_after from app_storage_spaces s join apps a on a.id = s.app_id
         where s.workspace_id = $1 and s.kind = 'workspace' order by s.bytes desc, a.name`, [actor.workspaceId]);
      return rows.map((r) => ({ appId: r.app_id, appName: r.name, keys: r.keys, bytes: r.bytes, purgeAfter: r.purge_after === null ? null : r.purge_after.toISOString() }));
    },
    async purge(actor, appId) {
      requireAdmin(actor, 'purge an app\'s data');
      if (!(await purgeSpace(deps.db, { appId, workspaceId: actor.workspaceId, kind: 'workspace' }))) {
        throw new PlatformError('PlatformApiNotFoundError', 'This app keeps no data in your workspace', { path: ['appId'] });
      }
    },
  };
}
