/**
 * @module catalog/rules/structure
 * Where containers may sit: sections one deep at block, tab or form level; tabs, forms and stacks
 * never inside their own kind; wide components never in a column; submit buttons only in a form.
 * Section handles are unique, and a collapsed section can always be opened again.
 */
import { OURS, SPEC } from '../kit/messages.ts';
import type { NodeRule } from '../kit/spec.ts';
import { fail } from '../kit/state.ts';

const SECTION_PARENTS = new Set(['uiBlock', 'uiTab', 'uiForm']);

export const sectionPlacement: NodeRule = (node, state) => {
  const parent = state.parent();
  if (parent?.type === 'uiSection') fail(SPEC.cantHold('<Section>', '<Section>'), node.path);
  if (!parent || !SECTION_PARENTS.has(parent.type) || state.closest('uiSection')) fail(SPEC.sectionDeep, node.path);
};

export const tabsPlacement: NodeRule = (node, state) => {
  if (state.closest('uiTabs')) fail(SPEC.tabsNested, node.path);
};

export const formPlacement: NodeRule = (node, state) => {
  if (state.closest('uiForm')) fail(SPEC.formsNested, node.path);
};

export const stackPlacement: NodeRule = (node, state) => {
  if (state.closest('uiStack')) fail(SPEC.stackInStack, node.path);
};

/** For components that need the full width (tables, charts, tabs, columns, metrics). */
export const widePlacement: NodeRule = (node, state) => {
  if (state.closest('uiColumn')) fail(SPEC.wideInColumn(node.component), node.path);
};

/** A submit button sits only at the end of a form; the form's content model places it there. */
export const submitPlacement: NodeRule = (node, state) => {
  if (node.attrs.buttonType === 'submit' && state.parent()?.type !== 'uiForm') fail(SPEC.submitOutside, node.path);
};

/** Handles are unique; a collapsed section has a title to click or a toggle button pointing at it. */
export const sectionHandle: NodeRule = (node, state) => {
  const handle = node.attrs.handle as string | undefined;
  if (handle !== undefined) {
    if (state.seenHandles.has(handle)) fail(OURS.duplicateHandle(handle), [...node.path, 'attrs', 'handle']);
    state.seenHandles.add(handle);
  }
  const openable = node.attrs.title !== undefined || (handle !== undefined && state.index.toggleTargets.has(handle));
  if (node.attrs.collapsed === true && !openable) fail(SPEC.collapsedSection, node.path);
};
