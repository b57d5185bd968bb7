/**
 * @module apps/guards
 * Every check a `/v0` route makes after its credential resolved, in one place: scopes, the reach
 * rule for write targets, and who may use the tooling endpoints on which app. Install status is
 * checked when the token resolves (apps/credentials/resolve.ts), before any route runs.
 */
export { requireScope } from './scope.ts';
export {
  appNotFound, assertCanDeploy, assertCanManageApp, canDeploy, canDevSync, canManageApp, mayRevealSigningSecret, targetForbidden,
  type DeployTarget, type DeployVerdict, type GuardedApp,
} from './deploy.ts';
export { createReachGuard, type ReachableCircle, type ReachCaller, type ReachGuard } from './reach.ts';
export { installRevoked } from '../credentials/resolve.ts';
