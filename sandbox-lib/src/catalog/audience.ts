/**
 * @module catalog/audience
 * A part of a tree whose `attrs.audience.members` leaves a member out never reaches that member:
 * not in a card read, not in a link card, not as a reference a click may use. One rule, used by
 * every place that shows a stored tree to a member. Trees are validated before they are stored
 * (≤ 12 levels, ≤ 250 components), so the recursive walk is bounded.
 */

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when a node with these attributes names an audience without `memberId`. */
export function hiddenFrom(attrs: unknown, memberId: string): boolean {
  const audience = isRecord(attrs) ? attrs.audience : undefined;
  if (!isRecord(audience) || !Array.isArray(audience.members)) return false;
  return !audience.members.includes(memberId);
}

/**
 * The tree as `memberId` sees it: the same object when nothing is hidden from them, else a copy
 * without the hidden parts (a hidden root leaves an empty document of the same type).
 */
export function treeForMember(tree: Json, memberId: string): Json {
  const visit = (node: Json): Json | null => {
    if (hiddenFrom(node.attrs, memberId)) return null;
    const content: unknown = node.content;
    if (!Array.isArray(content)) return node;
    let kept: unknown[] | undefined;
    content.forEach((child: unknown, i) => {
      const shown = isRecord(child) ? visit(child) : child;
      if (shown !== child && kept === undefined) kept = content.slice(0, i);
      if (kept !== undefined && shown !== null) kept.push(shown);
    });
    return kept === undefined ? node : { ...node, content: kept };
  };
  return visit(tree) ?? { ...tree, content: [] };
}
