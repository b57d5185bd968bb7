/**
 * @module catalog/rules/counts
 * Block-wide counts that are not about one container's children: images per block. (Children per
 * container are counted by the content models; components, depth and size by the prepass.)
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS } from '../kit/messages.ts';
import type { NodeRule } from '../kit/spec.ts';
import { fail } from '../kit/state.ts';

export const imageCount: NodeRule = (node, state) => {
  if (++state.images > LIMITS.blockTree.imagesPerBlock) fail(COUNTS.images, node.path);
};
