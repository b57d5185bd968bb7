/**
 * @module apps/check-trees/service
 * `validateTree` for tooling and installs, at most `checkTreesPerMinutePerCaller` requests a minute
 * per caller (the identity behind the credential, core/rate-limit/caller-key.ts). A tree the
 * catalog accepts has its images copied as a stored tree's would be (apps/assets/copy.ts): an image
 * that fails its checks answers the same `{ valid: false, message, path }` an insert would refuse
 * the tree with, and one that passes is copied already when the tree is sent for real.
 */
import { LIMITS, validateTree, type TreeValidation } from '@platform/sdk';
import type { Caller } from '../../core/auth/caller.ts';
import type { Kv } from '../../core/kv/kv.ts';
import { callerKey } from '../../core/rate-limit/caller-key.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';
import type { ImageCopier } from '../assets/copy.ts';

export interface CheckTreesService {
  check(caller: Caller, body: { tree: unknown; actions?: unknown }): Promise<TreeValidation>;
}

/**
 * @example
 * const checker = createCheckTreesService({ kv });
 * await checker.check(caller, { tree, actions }); // { valid: true }
 */
export function createCheckTreesService(deps: { kv: Kv; images: ImageCopier }): CheckTreesService {
  return {
    async check(caller, body) {
      await rateLimit(deps.kv, { key: `check-trees:${callerKey(caller)}`, limit: LIMITS.rateLimits.checkTreesPerMinutePerCaller, windowMs: 60_000 });
      const verdict = validateTree(body.tree, body.actions);
      if (!verdict.valid) return verdict;
      const copied = await deps.images.copyTree(body.tree as Record<string, unknown>);
      return copied.ok ? verdict : { valid: false, message: copied.message, path: copied.path };
    },
  };
}
