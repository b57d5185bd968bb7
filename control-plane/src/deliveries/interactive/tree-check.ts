/**
 * @module deliveries/interactive/tree-check
 * Every tree an app sends (insert, render, action result) is checked with the catalog's
 * `validateTree` together with its action table before it replaces anything; a tree that breaks a
 * rule or a limit keeps the previous one (spec, States: "Tree breaks a limit → Previous tree kept").
 * A good tree yields what the block row stores beside it: its summary and a hash of tree and table
 * as sent (jsonb reorders keys, so equality is judged on what the app sent).
 */
import { createHash } from 'node:crypto';
import { validateTree, type PathSegment } from '@platform/sdk';
import type { CopyBudget, ImageCopier } from '../../apps/assets/copy.ts';

export interface CheckedTree {
  ok: true;
  tree: Record<string, unknown>;
  actions: Record<string, { name: string; args?: Record<string, unknown> }>;
  summary: string;
  hash: string;
  /** `tree` and `actions` as JSON, as hashed (what a write stores, without serializing them again). */
  treeJson: string;
  actionsJson: string;
}

export type TreeCheck = CheckedTree | { ok: false; message: string; path: PathSegment[] };

/**
 * @example
 * const checked = checkTree(result.tree, result.actions);
 * if (!checked.ok) fail(`${checked.message} at ${checked.path.join('.')}`);
 */
export function checkTree(tree: unknown, actions: unknown): TreeCheck {
  const verdict = validateTree(tree, actions ?? {});
  if (!verdict.valid) return { ok: false, message: verdict.message, path: verdict.path };
  const root = tree as { attrs: { summary: string } };
  const treeJson = JSON.stringify(tree);
  const actionsJson = JSON.stringify(actions ?? {});
  const hash = createHash('sha256').update(treeJson).update('\n').update(actionsJson).digest('base64url');
  return {
    ok: true,
    tree: tree as Record<string, unknown>,
    actions: (actions ?? {}) as CheckedTree['actions'],
    summary: root.attrs.summary,
    hash,
    treeJson,
    actionsJson,
  };
}

/** A tree problem as one line for logs, the Deliveries page and error messages. */
export function treeProblem(check: { message: string; path: PathSegment[] }): string {
  return `The tree is invalid at ${check.path.length === 0 ? '(root)' : check.path.join('.')}: ${check.message}`;
}

/**
 * The checked tree with its images copied (asset ids in place of their URLs: apps/assets/copy.ts),
 * or the first image that failed its checks, which refuses the tree like any other limit. The hash
 * stays the one of the tree as the app sent it.
 * @example
 * const copied = checked.ok ? await withCopiedImages(images, checked, { withinMs: budget.remainingMs }) : checked;
 */
export async function withCopiedImages(images: ImageCopier, checked: CheckedTree, budget?: CopyBudget): Promise<TreeCheck> {
  const copied = await images.copyTree(checked.tree, budget);
  if (!copied.ok) return { ok: false, message: copied.message, path: copied.path };
  if (copied.tree === checked.tree) return checked;
  return { ...checked, tree: copied.tree, treeJson: JSON.stringify(copied.tree) };
}
