/**
 * @module catalog/rules/prose
 * Rich text inside `<Prose>`: lists nest at most two levels, quotes never hold quotes, and headings
 * and code blocks stand on their own (never in a list or a quote).
 */
import { LIMITS } from '../../limits/limits.ts';
import { SPEC } from '../kit/messages.ts';
import type { NodeRule } from '../kit/spec.ts';
import { fail } from '../kit/state.ts';

const LISTS = new Set(['bulletList', 'orderedList']);

export const listPlacement: NodeRule = (node, state) => {
  const outer = state.frames.filter((f) => LISTS.has(f.type)).length;
  if (outer >= LIMITS.blockTree.proseListDepth) fail(SPEC.listDepth, node.path);
};

export const quotePlacement: NodeRule = (node, state) => {
  if (state.closest('blockquote')) fail(SPEC.quoteInQuote, node.path);
};

/** For headings and code blocks. */
export const standAlonePlacement: NodeRule = (node, state) => {
  if (state.closest('listItem', 'bulletList', 'orderedList', 'blockquote')) fail(SPEC.headingInListOrQuote, node.path);
};
