/**
 * @module console/pages/playground-sample
 * The tree the playground starts with. Where "Try" is offered, a sample for the block type it
 * preselects: its title, and a button for each of its actions (a menu after five), so the sample
 * can be tried as it stands and each button runs the app's own handler. Without a development
 * install, a tour of the catalog (a deploy card) to edit and check.
 */
import { LIMITS, renderTree, ui, type Draft, type RenderedTree } from '@platform/sdk';
import type { DevBlock } from './playground-try.ts';

/** The catalog tour shown when there is nothing to try it against. */
export const TOUR = renderTree(ui.block({ summary: 'Deploy #42 is waiting for approval' }, [
  ui.header({ title: 'Deploy #42', trailing: '2 min ago' }, [ui.status({ label: 'Waiting', tone: 'warning' })]),
  ui.metrics([ui.metric({ label: 'Error rate', value: 0.004, format: 'percent', delta: { value: -0.002, tone: 'positive' }, trend: [0.01, 0.008, 0.006, 0.004] })]),
  ui.progress({ value: 3, max: 5, unit: 'checks', label: 'Checks' }),
  ui.section({ title: 'Changes', handle: 'changes', collapsed: true }, [ui.text(['Fixes the ', ui.code('checkout'), ' timeout'])]),
  ui.actions([ui.button({ label: 'Approve', action: 'approve', intent: 'primary' }), ui.toggleButton({ label: 'Show changes', target: 'changes' })]),
]));

const { buttonsPerActions, itemsPerMenu } = LIMITS.blockTree;

/** `field-errors` → `Field errors`, within a button's label limit. */
function labelOf(name: string): string {
  const words = name.replace(/[-_.]+/g, ' ').trim();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return label.length <= LIMITS.text.buttonLabel ? label : `${label.slice(0, LIMITS.text.buttonLabel - 1)}…`;
}

/** A destructive action asks first, as the catalog requires. */
function button(action: DevBlock['actions'][number]): Draft {
  const label = labelOf(action.name);
  return action.destructive
    ? ui.button({ label, action: action.name, intent: 'destructive', confirm: { title: `${label}?` } })
    : ui.button({ label, action: action.name });
}

function menuItem(action: DevBlock['actions'][number]): Draft {
  const label = labelOf(action.name);
  return ui.menuItem({ label, action: action.name, ...(action.destructive ? { intent: 'destructive' as const, confirm: { title: `${label}?` } } : {}) });
}

/**
 * A tree of `block`'s type with a button per action (the first five; a menu holds up to twelve more).
 * @example sampleFor({ type: 'greeting', title: 'Greeting', actions: [{ name: 'wave', destructive: false }], … }).actions // { a0: { name: 'wave' } }
 */
export function sampleFor(block: Pick<DevBlock, 'type' | 'title' | 'actions'>): RenderedTree {
  const shown = block.actions.slice(0, buttonsPerActions);
  const more = block.actions.slice(buttonsPerActions, buttonsPerActions + itemsPerMenu);
  // Every block has one actions bar; a type without actions gets a button that needs none.
  const bar = shown.length === 0 ? [ui.copyButton({ label: 'Copy the type', copyText: block.type })]
    : [...shown.map(button), ...(more.length === 0 ? [] : [ui.menu({ label: 'More' }, more.map(menuItem))])];
  return renderTree(ui.block({ summary: `${block.title}: a sample to try` }, [
    ui.header({ title: block.title }, [ui.badge({ label: 'sample' })]),
    ui.text(['A sample tree of ', ui.code(block.type), shown.length === 0 ? '; the type has no actions to try.' : ' with a button for each action: Try it, then click one.']),
    ui.actions(bar),
  ]));
}
