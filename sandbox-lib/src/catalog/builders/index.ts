/**
 * @module catalog/builders
 * `ui`: one builder per catalog component, plus text runs and `ui.action`. Builders return drafts;
 * `renderTree(draft)` answers `{ tree, actions }` with references assigned.
 */
import { actions, button, copyButton, linkButton, menu, menuItem, row, submit, toggleButton } from './actions.ts';
import { avatarStack, badge, callout, file, icon, image, item, progress, quote, status, step, text } from './content.ts';
import { action, bold, code, italic, link, span, strike } from './core.ts';
import { chart, fact, facts, metaItem, metaList, metric, metrics, table } from './data.ts';
import { choiceGroup, form, select, textInput, toggle } from './forms.ts';
import { blockquote, bulletList, codeBlock, heading, listItem, orderedList, paragraph, prose } from './prose.ts';
import { block, column, columns, footer, header, section, stack, tab, tabs } from './structure.ts';

/**
 * The catalog v1 builders.
 * @example
 * const { tree, actions } = renderTree(ui.block({ summary: 'Lunch poll' }, [
 *   ui.header({ title: 'Where do we eat?' }),
 *   ui.choiceGroup({ name: 'lunch', label: 'Pick one', shared: true, onChange: 'vote', results: 'tallies',
 *     choices: [{ value: 'pizza', label: 'Pizza' }, { value: 'sushi', label: 'Sushi' }] }),
 *   ui.actions([ui.button({ label: 'Close poll', action: 'close' })]),
 * ]));
 */
export const ui = {
  block, header, footer, section, columns, column, tabs, tab, stack,
  item, text, callout, step, quote, file, image, progress, avatarStack, badge, status, icon,
  actions, button, submit, linkButton, copyButton, toggleButton, menu, menuItem, row,
  metrics, metric, metaList, metaItem, facts, fact, table, chart,
  form, textInput, select, choiceGroup, toggle,
  prose, paragraph, heading, bulletList, orderedList, listItem, blockquote, codeBlock,
  span, bold, italic, strike, code, link, action,
} as const;

export { renderTree, type RenderedTree } from './render-tree.ts';
export type { ActionCall, ActionInput, Draft, Inline, SpanOptions, WithAudience } from './core.ts';
