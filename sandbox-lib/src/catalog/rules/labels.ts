/**
 * @module catalog/rules/labels
 * Labels are unique, with case and extra spaces ignored, among: the buttons and menu of one Actions
 * or Row, the items of a Menu, Tabs, Facts, Metrics (children, checked here), and ChoiceGroup
 * choices, Select options, Table columns, Chart series and points (attribute lists, checked by
 * their components' rules with the spec's own messages).
 */
import { SPEC } from '../kit/messages.ts';
import type { NodeView } from '../kit/spec.ts';
import type { PathSegment } from '../kit/types.ts';
import { labelKey } from '../kit/measure.ts';
import { fail, type WalkState } from '../kit/state.ts';

/** Registers a child's label with its parent's group, if the parent keeps one for this child type. */
export function registerLabel(node: NodeView, state: WalkState): void {
  const tally = state.parent()?.labels;
  const label = node.attrs.label;
  if (!tally || typeof label !== 'string' || !tally.group.of.includes(node.type)) return;
  const key = labelKey(label);
  if (tally.seen.has(key)) fail(SPEC.duplicateLabel(label.trim(), tally.group.name), [...node.path, 'attrs', 'label']);
  tally.seen.add(key);
}

/** The index of the first item whose key repeats an earlier one's, or -1. */
export function firstRepeat<T>(items: readonly T[], key: (item: T) => string): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i]!);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}

/** Fails with `message(item)` at `path(i)` for the first item whose label repeats. */
export function uniqueLabels<T>(items: readonly T[], labelOf: (item: T) => string, message: (label: string) => string, path: (i: number) => PathSegment[]): void {
  const i = firstRepeat(items, (item) => labelKey(labelOf(item)));
  if (i >= 0) fail(message(labelOf(items[i]!).trim()), path(i));
}
