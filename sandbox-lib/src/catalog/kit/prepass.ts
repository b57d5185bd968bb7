/**
 * @module catalog/kit/prepass
 * The whole-tree limits, checked first and without recursion: nesting depth, components per block
 * and serialized size. A tree nested 100,000 deep stops at its thirteenth level, a 10 MB document at
 * its 64th kilobyte. Only a tree that passes reaches the recursive walk, whose depth is then bounded.
 * The pass also gathers section handles and toggle targets, which rules need before they are reached.
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS } from './messages.ts';
import type { PathSegment } from './types.ts';
import { walkJson } from './json-walk.ts';

export interface TreeIndex {
  /** Handles of all sections in the tree. */
  readonly handles: ReadonlySet<string>;
  /** Section handles that some toggle button targets. */
  readonly toggleTargets: ReadonlySet<string>;
}

export type PrepassResult = { ok: true; index: TreeIndex } | { ok: false; message: string; path: PathSegment[] };

const { nestingDepth, componentsPerBlock, serializedBytes } = LIMITS.blockTree;

function attrOf(node: Record<string, unknown>, name: string): unknown {
  const attrs = node.attrs;
  return typeof attrs === 'object' && attrs !== null && !Array.isArray(attrs) ? (attrs as Record<string, unknown>)[name] : undefined;
}

/** Depth, component count and size of `tree`, in document order; the first one broken is the answer. */
export function prepass(tree: unknown): PrepassResult {
  let components = 0;
  let problem: { message: string; path: PathSegment[] } | undefined;
  const handles = new Set<string>();
  const toggleTargets = new Set<string>();
  const outcome = walkJson(tree, serializedBytes, {
    visit: (node, depth, path) => {
      if (node.type === 'text') return true;
      if (depth > nestingDepth) {
        problem = { message: COUNTS.depth, path: path() };
        return false;
      }
      if (++components > componentsPerBlock) {
        problem = { message: COUNTS.components, path: path() };
        return false;
      }
      const handle = attrOf(node, 'handle');
      if (node.type === 'uiSection' && typeof handle === 'string') handles.add(handle);
      const target = attrOf(node, 'target');
      if (node.type === 'uiButton' && attrOf(node, 'buttonType') === 'toggle' && typeof target === 'string') toggleTargets.add(target);
      return true;
    },
  });
  if (problem) return { ok: false, ...problem };
  if (outcome.kind === 'over') return { ok: false, message: COUNTS.size, path: [] };
  return { ok: true, index: { handles, toggleTargets } };
}
