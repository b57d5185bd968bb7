/**
 * Builders agree with the validator: every tree the arbitraries write with `ui.*` is valid once
 * rendered (unless it is over the block-wide budgets, which the property skips).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTree, validateTree } from '../../../sandbox-lib/src/catalog/index.ts';
import { blockArb } from './arbitraries.ts';

function components(node: unknown): number {
  if (!node || typeof node !== 'object') return 0;
  const { type, content } = node as { type?: string; content?: unknown[] };
  return (type === 'text' ? 0 : 1) + (content ?? []).reduce<number>((n, c) => n + components(c), 0);
}

describe('builders and validateTree agree', () => {
  it('every generated tree is valid', () => {
    fc.assert(fc.property(blockArb, (build) => {
      const { tree, actions } = renderTree(build({ fields: 0, handles: [], images: 0 }));
      // The arbitraries keep each part within its own limits; the whole may still exceed the block's.
      fc.pre(components(tree) <= 250 && Buffer.byteLength(JSON.stringify(tree)) <= 65_536 && Object.keys(actions).length <= 64);
      const result = validateTree(tree, actions);
      if (!result.valid) expect({ ...result, at: result.path.reduce<any>((n, k) => n?.[k], tree) }).toEqual({ valid: true });
    }), { numRuns: 300 });
  });
});
