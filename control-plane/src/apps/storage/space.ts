/**
 * @module apps/storage/space
 * Which storage space a caller reaches: its app's, in its workspace, for its install's kind. Keying
 * the space by these three (not by the install id) is what lets a reinstall find the data an
 * uninstall kept, while a development install stays apart from the workspace install.
 */
import { PlatformError } from '@platform/sdk';
import type { InstallCaller, InteractionCaller } from '../../core/auth/caller.ts';
import type { Db } from '../../core/db/db.ts';
import type { StorageSpace } from './store.ts';

/** Tooling's way in: the author's (or an admin's) CLI or console, after apps/storage/tooling.ts allowed it. */
export interface ToolingSpace {
  kind: 'tooling';
  space: StorageSpace;
}

export async function spaceOfInstall(db: Db, caller: InstallCaller | InteractionCaller | ToolingSpace): Promise<StorageSpace> {
  if (caller.kind === 'tooling') return caller.space;
  if (caller.kind === 'install') return { appId: caller.appId, workspaceId: caller.workspaceId, kind: caller.installKind };
  if (caller.installKind !== undefined) return { appId: caller.appId, workspaceId: caller.workspaceId, kind: caller.installKind };
  // An interaction token does not say its install's kind; the install row does.
  const { rows } = await db.query<{ kind: 'workspace' | 'dev' }>('select kind from installs where id = $1 and app_id = $2', [caller.installId, caller.appId]);
  const kind = rows[0]?.kind;
  if (kind === undefined) throw new PlatformError('PlatformAppInstallNotFoundError', 'The install of this token no longer exists');
  return { appId: caller.appId, workspaceId: caller.workspaceId, kind };
}
