/**
 * @module apps/check-trees/service
 * `validateTree` for tooling and installs, at most `checkTreesPerMinutePerCaller` requests a minute
 * per caller (the identity behind the credential, core/rate-limit/caller-key.ts).
 */
import { LIMITS, validateTree, type TreeValidation } from '@platform/sdk';
import type { Caller } from '../../core/auth/caller.ts';
import type { Kv } from '../../core/kv/kv.ts';
import { callerKey } from '../../core/rate-limit/caller-key.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';

export interface TreeChecker {
  check(caller: Caller, body: { tree: unknown; actions?: unknown }): Promise<TreeValidation>;
}

/**
 * @example
 * const checker = createTreeChecker({ kv });
 * await checker.check(caller, { tree, actions }); // { valid: true }
 */
export function createTreeChecker(deps: { kv: Kv }): TreeChecker {
  return {
    async check(caller, body) {
      await rateLimit(deps.kv, { key: `check-trees:${callerKey(caller)}`, limit: LIMITS.rateLimits.checkTreesPerMinutePerCaller, windowMs: 60_000 });
      return validateTree(body.tree, body.actions);
    },
  };
}
