/**
 * @module sandbox/bundle-plans
 * How this worker starts each bundle, by sha256: as a cached script (the converted source and the
 * code cache this process produced for it) or as a module (the conversion was refused). Kept in
 * this process's memory only, least recently used first out, within a count and a size: converted
 * sources are as large as the bundles (up to 10 MB each).
 */
import type { BundleScript } from './bundle-script.ts';
import type { ExternalCopy } from './ivm.ts';

export type BundlePlan =
  | { mode: 'module'; reason: string }
  | { mode: 'script'; script: BundleScript; cachedData: ExternalCopy<ArrayBuffer> };

export const PLAN_LIMITS = { entries: 64, sourceChars: 64 * 1024 * 1024 } as const;

export function createBundlePlans(limits: { entries: number; sourceChars: number } = PLAN_LIMITS) {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const plans = new Map<string, BundlePlan>();
  let chars = 0;
  const size = (plan: BundlePlan): number => (plan.mode === 'script' ? plan.script.code.length : 0);

  const remove = (sha: string): void => {
    const plan = plans.get(sha);
    if (plan === undefined) return;
    plans.delete(sha);
    chars -= size(plan);
    if (plan.mode === 'script') plan.cachedData.release();
  };

  return {
    get(sha: string): BundlePlan | undefined {
      const plan = plans.get(sha);
      if (plan !== undefined) {
        plans.delete(sha);
        plans.set(sha, plan);
      }
      return plan;
    },
    set(sha: string, plan: BundlePlan): void {
      remove(sha);
      if (size(plan) > limits.sourceChars) {
        if (plan.mode === 'script') plan.cachedData.release();
        return;
      }
      plans.set(sha, plan);
      chars += size(plan);
      for (const oldest of plans.keys()) {
        if (plans.size <= limits.entries && chars <= limits.sourceChars) break;
        remove(oldest);
      }
    },
    delete: remove,
    get size(): number { return plans.size; },
  };
}

export type BundlePlans = ReturnType<typeof createBundlePlans>;
