/**
 * Assertions and tree makers shared by the catalog tests.
 */
import { expect } from 'vitest';
import { renderTree, ui, validateTree, type Draft, type TreeValidation } from '../../../sandbox-lib/src/catalog/index.ts';

export { ui, renderTree, validateTree, type Draft };

/** Validates the smallest valid block around `body` (and an actions bar of `bar`), with its table. */
export function check(body: Draft[], bar: Draft[] = []): TreeValidation {
  const { tree, actions } = renderTree(ui.block({ summary: 'S' }, [...body, ui.actions(bar)]));
  return validateTree(tree, actions);
}

/** Validates a raw tree built around `body` (plain JSON nodes), with an optional table. */
export function checkRaw(body: unknown[], actions: unknown = {}, bar: unknown[] = []): TreeValidation {
  return validateTree({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [...body, { type: 'uiActions', content: bar }] }, actions);
}

export function expectValid(result: TreeValidation): void {
  expect(result).toEqual({ valid: true });
}

/** The exact message, and the path when given. */
export function expectProblem(result: TreeValidation, message: string, path?: Array<string | number>): void {
  expect(result).toMatchObject({ valid: false, message });
  if (path) expect(result).toEqual({ valid: false, message, path });
}

/**
 * Text of exactly `n` characters as people see them, but many more UTF-16 units: a thumbs-up
 * with a skin tone is one grapheme of four code units, so the counts prove graphemes are counted.
 */
export function graphemes(n: number): string {
  return n <= 0 ? '' : 'a' + '👍🏽'.repeat(n - 1);
}

/** `n` characters of plain ASCII. */
export const ascii = (n: number): string => 'x'.repeat(n);

/** A list of `n` items made by `make(i)`. */
export const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** Path of the i-th body element of a block built by `check`. */
export const bodyAt = (i: number, ...rest: Array<string | number>): Array<string | number> => ['content', i, ...rest];
