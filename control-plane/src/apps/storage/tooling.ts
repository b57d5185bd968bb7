/**
 * @module apps/storage/tooling
 * Storage for the app's tooling (`platform storage`, the console's storage browser): the author
 * reads and writes the space of the app's development install (`dev`) or of its workspace install
 * (`workspace`, in the app's own workspace). Reads need what any tooling read of the app needs;
 * writes need what a deploy to the matching target needs (preview for `dev`, production for
 * `workspace`), so a preview-only credential cannot change production data.
 */
import type { Db } from '../../core/db/db.ts';
import { deployableApp, manageableApp, type ToolingCaller } from '../guards/access.ts';
import type { ToolingSpace } from './space.ts';

export type ToolingInstall = 'dev' | 'workspace';

export async function toolingSpace(db: Db, caller: ToolingCaller, appId: string, install: ToolingInstall, writes: boolean): Promise<ToolingSpace> {
  const app = writes ? await deployableApp(db, caller, appId, install === 'dev' ? 'preview' : 'production') : await manageableApp(db, caller, appId);
  return { kind: 'tooling', space: { appId: app.id, workspaceId: app.workspace_id, kind: install } };
}
