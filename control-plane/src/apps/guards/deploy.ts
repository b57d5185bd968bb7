/**
 * @module apps/guards/deploy
 * Who may use the tooling endpoints on an app (spec, Authentication and manifest sync):
 *
 * | credential | may touch the app when | production |
 * | - | - | - |
 * | member API key | the member owns the app, or is a workspace owner or admin of its workspace | yes |
 * | deploy token | it was issued for this app | unless preview-only |
 * | agent builder token | the member owns the app | never |
 * | anything else | never | |
 *
 * Verdicts: `not-found` → answer `404 PlatformAppNotFoundError`, exactly as if the app did not
 * exist (decided before the target, so a refusal never confirms that an app exists);
 * `target-forbidden` → `403 PlatformAppDeployTargetForbiddenError`. The `can…` functions return the
 * verdict (pure, table-tested); the `assert…` ones throw the spec's error and return the app.
 */
import { PlatformError } from '@platform/sdk';
import type { Caller } from '../../core/auth/caller.ts';

export type DeployTarget = 'preview' | 'production';
export type DeployVerdict = 'allowed' | 'not-found' | 'target-forbidden';

/** The columns of an `apps` row the guard reads (an `AppRow` fits). */
export interface GuardedApp {
  id: string;
  workspace_id: string;
  owner_member_id: string;
}

export function appNotFound(): PlatformError {
  return new PlatformError('PlatformAppNotFoundError', 'No such app, or you may not deploy it', { path: ['app_id'] });
}

export function targetForbidden(caller: Caller): PlatformError {
  const why = caller.kind === 'deploy' ? 'This deploy token may deploy previews only' : 'Agent builder tokens may deploy previews only';
  return new PlatformError('PlatformAppDeployTargetForbiddenError', why, { path: ['target'] });
}

/**
 * Whether the caller may use tooling on the app at all (reads such as the manifest or env var keys).
 *
 * @example
 * if (canManageApp(auth, app) !== 'allowed') throw appNotFound();
 */
export function canManageApp(caller: Caller, app: GuardedApp | null | undefined): 'allowed' | 'not-found' {
  if (app === null || app === undefined) return 'not-found';
  switch (caller.kind) {
    case 'member':
      if (caller.workspaceId !== app.workspace_id) return 'not-found';
      return caller.memberId === app.owner_member_id || caller.role === 'owner' || caller.role === 'admin' ? 'allowed' : 'not-found';
    case 'deploy':
      return caller.appId === app.id ? 'allowed' : 'not-found';
    case 'agent':
      return caller.workspaceId === app.workspace_id && caller.memberId === app.owner_member_id ? 'allowed' : 'not-found';
    default:
      return 'not-found';
  }
}

/**
 * Whether the caller may deploy `target` of the app (manifest sync, upload, env var writes).
 *
 * @example
 * const verdict = canDeploy(auth, app, body.target); // 'allowed' | 'not-found' | 'target-forbidden'
 */
export function canDeploy(caller: Caller, app: GuardedApp | null | undefined, target: DeployTarget): DeployVerdict {
  const manage = canManageApp(caller, app);
  if (manage !== 'allowed' || target === 'preview') return manage;
  if (caller.kind === 'deploy' && caller.previewOnly) return 'target-forbidden';
  if (caller.kind === 'agent') return 'target-forbidden';
  return 'allowed';
}

/**
 * Throws the spec's error unless the caller may manage the app; returns the app.
 *
 * @example
 * const app = assertCanManageApp(auth, await findApp(db, params.app_id));
 */
export function assertCanManageApp<A extends GuardedApp>(caller: Caller, app: A | null | undefined): A {
  if (canManageApp(caller, app) !== 'allowed') throw appNotFound();
  return app!;
}

/**
 * Throws the spec's error unless the caller may deploy `target` of the app; returns the app.
 *
 * @example
 * const app = assertCanDeploy(auth, await findApp(db, params.app_id), body.target);
 */
export function assertCanDeploy<A extends GuardedApp>(caller: Caller, app: A | null | undefined, target: DeployTarget): A {
  const verdict = canDeploy(caller, app, target);
  if (verdict === 'not-found') throw appNotFound();
  if (verdict === 'target-forbidden') throw targetForbidden(caller);
  return app!;
}

/**
 * `PUT /v0/apps/dev`: member API keys and agent builder tokens sync their own development app;
 * deploy tokens are refused (`target-forbidden`, spec dev sync errors); nothing else is accepted.
 *
 * @example
 * if (canDevSync(auth) === 'target-forbidden') throw new PlatformError('PlatformAppDeployTargetForbiddenError', '…');
 */
export function canDevSync(caller: Caller): 'allowed' | 'target-forbidden' | 'not-accepted' {
  if (caller.kind === 'member' || caller.kind === 'agent') return 'allowed';
  return caller.kind === 'deploy' ? 'target-forbidden' : 'not-accepted';
}

/** `?reveal=signing-secret` of the dev sync: agent builder tokens never receive the secret. */
export function mayRevealSigningSecret(caller: Caller): boolean {
  return caller.kind === 'member';
}
