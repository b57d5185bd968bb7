/**
 * @module apps/guards/access
 * Which tooling caller may act on which app and target (manifest sync, uploads, env vars, reading
 * the manifest): the guards' credential matrix (`canDeploy`) applied to the app's row. A caller who
 * may not deploy the app gets `PlatformAppNotFoundError` as if it did not exist; one who may deploy
 * it but not to production gets `PlatformAppDeployTargetForbiddenError`.
 */
import type { AgentCaller, DeployCaller, MemberCaller } from '../../core/auth/caller.ts';
import type { Db } from '../../core/db/db.ts';
import { assertCanDeploy, assertCanManageApp } from './index.ts';
import { findApp, type AppRow } from '../apps/store.ts';
import type { Target } from '../versions/store.ts';

export type ToolingCaller = MemberCaller | DeployCaller | AgentCaller;

/**
 * The app, when `caller` may deploy it to `target`.
 * @example const app = await deployableApp(db, auth, params.app_id, body.target);
 */
export async function deployableApp(db: Db, caller: ToolingCaller, appId: string, target: Target): Promise<AppRow> {
  return assertCanDeploy(caller, await findApp(db, appId), target);
}

/** The app, when `caller` may use tooling on it at all (reads). */
export async function manageableApp(db: Db, caller: ToolingCaller, appId: string): Promise<AppRow> {
  return assertCanManageApp(caller, await findApp(db, appId));
}
