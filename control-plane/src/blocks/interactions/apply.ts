/**
 * @module blocks/interactions/apply
 * An `ActionResult`, exactly as the spec's table says:
 *
 * | field | effect here |
 * | - | - |
 * | `state` | replaces the state after passing the block's state schema (≤ 64 KB) |
 * | `tree` + `actions` | replace tree and table after passing the catalog; a new revision unless identical |
 * | `notice`, `fieldErrors` | answered to the acting member only |
 * | `openUrl` | answered to the acting member (opened once, best effort) and kept as their open link |
 * | `final` | locks the block: the last tree stays, the app is not called for it again |
 * | `notify` | inbox notifications (messaging/notifications/notify.ts) |
 * | `revalidate` | `block.render` right after the answer |
 *
 * Only `revalidate` asks for a render. A `state` without a tree keeps the stored tree (and when its
 * next render is due): the SDK answers every changed state with its tree drawn in the same
 * response, and an app that sends a state alone and wants it drawn says `revalidate`
 * (docs/decisions/clicks.md).
 *
 * For a `readOnly` action `state`, `tree`, `actions`, `final` and `notify` are ignored. Checking
 * happens before anything is applied (as the engine's `check`, so a failure is recorded as
 * `response-invalid`): a state or tree that fails fails the whole action and nothing changes.
 */
import type { ActionResult, Notice } from '@platform/sdk';
import type { BlockType } from '../definitions/definitions.ts';
import type { Json, OpenLink } from '../records/store.ts';
import { checkState } from '../definitions/state.ts';
import { checkTree, treeProblem, type CheckedTree } from '../../deliveries/interactive/tree-check.ts';
import type { ResultWrite } from '../records/store.ts';

export interface PreparedResult {
  state: Json | null;
  tree: CheckedTree | null;
  final: { summary: string | null } | null;
  notify: Array<{ memberId: string; text: string }>;
  notice: Notice | null;
  fieldErrors: Record<string, string> | null;
  openUrl: string | null;
  revalidate: boolean;
}

/** Checks a result against the block type; a string is the problem that fails the action. */
export function prepareResult(result: ActionResult, type: BlockType, readOnly: boolean): PreparedResult | string {
  const changes = !readOnly;
  let tree: CheckedTree | null = null;
  if (changes && result.state !== undefined) {
    const state = checkState(type.state, result.state);
    if (!state.ok) return state.message;
  }
  if (changes && result.tree !== undefined) {
    const checked = checkTree(result.tree, result.actions);
    if (!checked.ok) return treeProblem(checked);
    tree = checked;
  }
  return {
    state: changes && result.state !== undefined ? result.state : null,
    tree,
    final: changes && result.final !== undefined ? { summary: result.final.summary ?? null } : null,
    notify: changes ? result.notify ?? [] : [],
    notice: result.notice ?? null,
    fieldErrors: result.fieldErrors ?? null,
    openUrl: result.openUrl ?? null,
    revalidate: result.revalidate === true,
  };
}

/** The row write a prepared result makes, or null when it changes nothing stored. */
export function resultWrite(p: PreparedResult, ctx: { memberId: string; staleAfter: number | undefined; at: Date; hadMemberError: boolean }): ResultWrite | null {
  const openLink: OpenLink | null = p.openUrl === null ? null
    : { memberId: ctx.memberId, url: p.openUrl, host: new URL(p.openUrl).host, at: ctx.at.toISOString() };
  if (p.state === null && p.tree === null && p.final === null && openLink === null && !ctx.hadMemberError) return null;
  let renderDueAt: ResultWrite['renderDueAt'] = 'keep';
  if (p.final !== null) renderDueAt = null;
  else if (p.tree !== null) renderDueAt = ctx.staleAfter === undefined ? null : new Date(ctx.at.getTime() + ctx.staleAfter * 1000);
  return {
    state: p.state,
    tree: p.tree === null ? null
      : { tree: p.tree.tree, actions: p.tree.actions, hash: p.tree.hash, summary: p.tree.summary, treeJson: p.tree.treeJson, actionsJson: p.tree.actionsJson },
    versionBump: p.state !== null || p.final !== null ? 1 : 0,
    renderDueAt,
    final: p.final,
    memberId: ctx.memberId,
    openLink,
    at: ctx.at,
  };
}
