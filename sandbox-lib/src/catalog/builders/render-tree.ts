/**
 * @module catalog/builders/render-tree
 * Turns a draft from the builders into what a block answers with: the tree, whose action
 * attributes hold references (`a0`, `a1`, … in document order), and the action table they point
 * into. The same action with the same arguments gets one reference.
 */
import type { ActionTable, UiBlockNode } from '../kit/types.ts';
import { type Draft, isActionCall } from './core.ts';

export interface RenderedTree {
  tree: UiBlockNode;
  actions: ActionTable;
}

/**
 * The tree and its action table, ready to return from `block.render` (or an action result).
 * @example
 * const { tree, actions } = renderTree(ui.block({ summary: 'Approve deploy #42?' }, [
 *   ui.actions([ui.button({ label: 'Approve', action: 'approve', args: { deploy: 42 } })]),
 * ]));
 * // actions → { a0: { name: 'approve', args: { deploy: 42 } } }
 */
export function renderTree(block: Draft): RenderedTree {
  const actions: ActionTable = {};
  const refs = new Map<string, string>();

  const copy = (value: unknown): unknown => {
    if (isActionCall(value)) {
      const key = `${value.name}\u0000${value.args === undefined ? '' : JSON.stringify(value.args)}`;
      let ref = refs.get(key);
      if (ref === undefined) {
        ref = `a${refs.size}`;
        refs.set(key, ref);
        actions[ref] = value.args === undefined ? { name: value.name } : { name: value.name, args: value.args };
      }
      return { ref };
    }
    if (Array.isArray(value)) return value.map(copy);
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(value)) if (member !== undefined) out[key] = copy(member);
      return out;
    }
    return value;
  };

  return { tree: copy(block) as UiBlockNode, actions };
}
