/**
 * @module apps/rollouts/verdict
 * When the platform aborts a rollout by itself (docs/decisions/rollouts.md, "The bound"). Each side
 * is a count of outcomes and of failures: the new version's (the installs the rollout moved), and
 * the old one's (every other install and the app-level routes, over the same time). The new
 * version is worse when, with 99 % confidence on each side (Wilson score intervals, z = 2.576),
 * its failure rate is above the old one's: the lower bound of the new rate exceeds the upper bound
 * of the old. Nothing is decided before the new version has MIN_OUTCOMES outcomes; while the old
 * one has fewer than that, the new one is compared with an absolute 50 % (an old side that quiet
 * says nothing, and a version failing most requests is worse than any release worth keeping).
 *
 * So a version failing every request is aborted at the first evaluation after its 20th failure
 * (the lower bound at 20 of 20 is 0.75), and one failing 5 of 20 requests beside an old version
 * failing none of 200 is too (0.09 > 0.03); noise of a few failures on either side is not.
 */

export const VERDICT = { minOutcomes: 20, z: 2.576, absoluteRate: 0.5 } as const;

export interface Side {
  outcomes: number;
  failures: number;
}

export interface Verdict {
  worse: boolean;
  /** The new side's lower bound and what it was compared with (the old side's upper bound, or the absolute rate). */
  newLower: number | null;
  baseline: number | null;
  newSide: Side;
  oldSide: Side;
}

/** The Wilson score interval of `failures` in `outcomes` at `z`. */
export function wilson(failures: number, outcomes: number, z: number = VERDICT.z): { lower: number; upper: number } {
  if (outcomes === 0) return { lower: 0, upper: 1 };
  const p = failures / outcomes;
  const z2 = z * z;
  const centre = p + z2 / (2 * outcomes);
  const spread = z * Math.sqrt((p * (1 - p) + z2 / (4 * outcomes)) / outcomes);
  const scale = 1 + z2 / outcomes;
  return { lower: Math.max(0, (centre - spread) / scale), upper: Math.min(1, (centre + spread) / scale) };
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

export function judge(newSide: Side, oldSide: Side): Verdict {
  if (newSide.outcomes < VERDICT.minOutcomes) return { worse: false, newLower: null, baseline: null, newSide, oldSide };
  const newLower = wilson(newSide.failures, newSide.outcomes).lower;
  const baseline = oldSide.outcomes < VERDICT.minOutcomes ? VERDICT.absoluteRate : wilson(oldSide.failures, oldSide.outcomes).upper;
  return { worse: newLower > baseline, newLower: round(newLower), baseline: round(baseline), newSide, oldSide };
}
