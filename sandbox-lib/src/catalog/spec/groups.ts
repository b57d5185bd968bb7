/**
 * @module catalog/spec/groups
 * Groups of components that content models and rules share, and small helpers for writing specs.
 */
import type { Slot } from '../kit/spec.ts';

/**
 * Flow elements: what the body of a block, section, tab, column, stack or form holds, and what may
 * carry an audience there. (At the root, the Actions has its own place after the body.)
 */
export const FLOW: ReadonlySet<string> = new Set([
  'uiItem', 'uiText', 'uiProse', 'uiActions', 'uiRow', 'uiAvatarStack', 'uiColumns', 'uiTabs', 'uiMetrics',
  'uiMetaList', 'uiFacts', 'uiTable', 'uiChart', 'uiSection', 'uiForm', 'uiTextInput', 'uiSelect',
  'uiChoiceGroup', 'uiToggle', 'uiCallout', 'uiStep', 'uiQuote', 'uiFile', 'uiImage', 'uiProgress', 'uiStack',
]);

/** Colours that say something: neutral, info, success, warning, danger (as the notice tones). */
export const TONES = ['neutral', 'info', 'success', 'warning', 'danger'] as const;

type Child = Readonly<Record<string, unknown>>;

export const ofType = (...types: string[]) => (child: Child): boolean => types.includes(child.type as string);
export const flowChild = (child: Child): boolean => FLOW.has(child.type as string);

/** A run of children. `what` completes "{parent} needs …". */
export function slot(accepts: Slot['accepts'], min: number, max: number, what: string, messages: { count?: string; few?: string } = {}): Slot {
  return { accepts, min, max, what, ...messages };
}

/** Any number of flow elements. */
export const flowSlot = (): Slot => slot(flowChild, 0, Number.POSITIVE_INFINITY, 'content');
