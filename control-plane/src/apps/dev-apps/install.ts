/**
 * @module apps/dev-apps/install
 * The `dev` install of a development app in its developer's workspace: created on the first sync
 * (recording `app.installed`), then kept on the version just synced. The developer approves by
 * syncing, so it holds the version's scopes as they are.
 */
import { isUniqueViolation, type Db } from '../../core/db/db.ts';
import { newInstallId } from '../apps/ids.ts';
import type { AppRow } from '../apps/store.ts';
import { recordInstallEvent } from '../installs/outbox.ts';
import { findLiveInstall, insertInstall, moveInstall, type InstallRow } from '../installs/store.ts';
import type { VersionRow } from '../versions/store.ts';

export async function ensureDevInstall(
  db: Db, input: { app: AppRow; member: { workspaceId: string; memberId: string }; version: VersionRow; at: Date },
): Promise<InstallRow> {
  const { app, member, version, at } = input;
  for (;;) {
    const existing = await findLiveInstall(db, app.id, member.workspaceId, 'dev');
    if (existing !== undefined) {
      if (existing.version !== version.version) await moveInstall(db, existing.id, version.version, version.manifest.scopes, at);
      return existing;
    }
    const row: InstallRow = {
      id: newInstallId(), app_id: app.id, workspace_id: member.workspaceId, kind: 'dev', version: version.version,
      approved_scopes: [...version.manifest.scopes], pending_version: null, config_enc: null, status: 'active', deliveries_paused_at: null,
      installed_by_member_id: member.memberId, created_at: at, updated_at: at,
    };
    try {
      await db.transaction(async (tx) => {
        await insertInstall(tx, row);
        await recordInstallEvent(tx, row, 'app.installed', at);
      });
      return row;
    } catch (err) {
      // Another sync created it at the same moment: read theirs.
      if (!isUniqueViolation(err)) throw err;
    }
  }
}
