/**
 * The abort bound of docs/decisions/rollouts.md, one row per case it names: nothing below 20
 * outcomes of the new version; a version failing all of 20 is worse (against a quiet old side, by
 * the absolute 50 %); 5 of 20 against 0 of 200 is worse; a few failures on either side are not;
 * a new version as bad as the old is not.
 */
import { describe, expect, it } from 'vitest';
import { judge, wilson } from '../../../control-plane/src/apps/rollouts/verdict.ts';

describe('the rollout verdict', () => {
  it.each([
    ['19 outcomes, all failed: too few to decide', { outcomes: 19, failures: 19 }, { outcomes: 0, failures: 0 }, false],
    ['20 of 20 failed, old side quiet: worse than 50 %', { outcomes: 20, failures: 20 }, { outcomes: 3, failures: 0 }, true],
    ['20 of 20 failed against 0 of 200', { outcomes: 20, failures: 20 }, { outcomes: 200, failures: 0 }, true],
    ['5 of 20 against 0 of 200', { outcomes: 20, failures: 5 }, { outcomes: 200, failures: 0 }, true],
    ['2 of 20 against 0 of 200: noise', { outcomes: 20, failures: 2 }, { outcomes: 200, failures: 0 }, false],
    ['9 of 20, old side quiet: not above 50 % with confidence', { outcomes: 20, failures: 9 }, { outcomes: 0, failures: 0 }, false],
    ['as bad as the old: 20 of 20 against 200 of 200', { outcomes: 20, failures: 20 }, { outcomes: 200, failures: 200 }, false],
    ['10 of 100 against 10 of 100', { outcomes: 100, failures: 10 }, { outcomes: 100, failures: 10 }, false],
  ])('%s', (_name, fresh, old, worse) => {
    expect(judge(fresh, old).worse).toBe(worse);
  });

  it('Wilson bounds hold at the edges', () => {
    expect(wilson(0, 0)).toEqual({ lower: 0, upper: 1 });
    expect(wilson(20, 20).lower).toBeCloseTo(0.751, 3);
    expect(wilson(0, 200).upper).toBeCloseTo(0.032, 3);
    expect(wilson(5, 20).lower).toBeCloseTo(0.087, 3);
  });
});
