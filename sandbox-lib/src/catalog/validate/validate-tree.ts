/**
 * @module catalog/validate/validate-tree
 * `validateTree`: the whole-tree limits first (depth, components, size, without recursion), then
 * the action table, then every node in document order. Pure: no I/O, no clock, no throwing.
 */
import { OURS } from '../kit/messages.ts';
import { actionTableProblem } from '../rules/actions.ts';
import { REGISTRY } from '../spec/registry.ts';
import type { ActionTable, TreeValidation } from '../kit/types.ts';
import { isRecord } from '../kit/attr-types.ts';
import { prepass } from '../kit/prepass.ts';
import { TreeProblem, WalkState } from '../kit/state.ts';
import { visitNode } from './walk.ts';

/**
 * Checks a block UI document against catalog v1 and the spec's limits, and answers the first
 * problem with the spec's message and the path of the node (or attribute) at fault.
 *
 * Pass the action table sent with the tree (`ActionTable`: reference → `{ name, args? }`; typed
 * `unknown` because it usually comes straight from parsed JSON) to check references (every `{ ref }` must be in it,
 * names must be valid, at most 64 actions, `args` at most 2 KB each). Without a table, references
 * are checked for shape only: callers that deliver a tree always pass its table (`{}` when empty).
 * Problems in the table carry paths starting with `"actions"`.
 *
 * @example
 * validateTree({
 *   type: 'uiBlock',
 *   attrs: { catalog: 1, summary: 'Deploy approved' },
 *   content: [{ type: 'uiActions', content: [{ type: 'uiButton', attrs: { buttonType: 'action', label: 'Undo', action: { ref: 'a0' } } }] }],
 * }, { a0: { name: 'undo' } }); // { valid: true }
 */
export function validateTree(tree: unknown, actions?: unknown): TreeValidation {
  if (!isRecord(tree) || tree.type !== 'uiBlock') return { valid: false, message: OURS.rootNotBlock, path: [] };
  const pre = prepass(tree);
  if (!pre.ok) return { valid: false, message: pre.message, path: pre.path };
  if (actions !== undefined) {
    const problem = actionTableProblem(actions);
    if (problem) return { valid: false, ...problem };
  }
  const state = new WalkState(actions as Readonly<ActionTable> | undefined, pre.index);
  try {
    visitNode(tree, REGISTRY.get('uiBlock')!, [], state);
    return { valid: true };
  } catch (error) {
    if (error instanceof TreeProblem) return { valid: false, message: error.message, path: error.path };
    throw error;
  }
}
