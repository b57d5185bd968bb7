/**
 * One test per component-specific row of the spec's "Tree validation messages": counts, choices,
 * destructive actions, icons, number formats, progress, search selects, donuts, duplicate names.
 */
import { describe, it } from 'vitest';
import { bodyAt, check, checkRaw, expectProblem, expectValid, times, ui } from './helpers.ts';

const text = ui.text('Body');
const tab = (label: string) => ui.tab({ label }, [text]);
const metric = (i: number) => ui.metric({ label: `M${i}`, value: i });
const series = (name: string, values: number[]) => ({ name, points: values.map((value, i) => ({ label: `p${i}`, value })) });

describe('tree validation messages: components', () => {
  it('count over limit (the spec\'s examples)', () => {
    expectProblem(check([ui.tabs(times(7, (i) => tab(`T${i}`)))]), 'Tabs hold 2 to 6 tabs', bodyAt(0, 'content', 6));
    expectProblem(check([ui.metrics(times(7, metric))]), 'Metrics hold at most 6 metrics', bodyAt(0, 'content', 6));
    expectProblem(check([ui.metaList(times(7, (i) => ui.metaItem({ text: `m${i}` })))]), 'Meta lists hold at most 6 items', bodyAt(0, 'content', 6));
  });

  it('count on the wrong choice', () => {
    const choices = [{ value: 'a', label: 'A', count: 3 }, { value: 'b', label: 'B' }];
    expectProblem(check([ui.choiceGroup({ name: 'c', label: 'C', onChange: 'pick', results: 'tallies', choices })]), 'Only integration results carry a count', bodyAt(0, 'attrs', 'choices', 0, 'count'));
    expectProblem(check([ui.choiceGroup({ name: 'c', label: 'C', onChange: 'pick', choices })]), 'Only integration results carry a count');
    expectValid(check([ui.choiceGroup({ name: 'c', label: 'C', onChange: 'pick', results: 'integration', choices })]));
  });

  it('destructive without confirm, on buttons, menu items and table row menus', () => {
    expectProblem(check([], [ui.button({ label: 'Delete', action: 'delete', intent: 'destructive' })]), 'Destructive actions need a confirm', ['content', 0, 'content', 0]);
    expectProblem(check([], [ui.menu({ label: 'M' }, [ui.menuItem({ label: 'Delete', action: 'delete', intent: 'destructive' })])]), 'Destructive actions need a confirm', ['content', 0, 'content', 0, 'content', 0]);
    const rows = [{ cells: ['x'], menu: [{ label: 'Delete', action: 'delete', intent: 'destructive' as const }] }];
    expectProblem(check([ui.table({ columns: [{ label: 'A' }], rows })]), 'Destructive actions need a confirm', bodyAt(0, 'attrs', 'rows', 0, 'menu', 0));
    const submit = ui.submit({ label: 'Wipe', action: 'wipe', intent: 'destructive' });
    expectProblem(check([ui.form([submit])]), 'Destructive actions need a confirm', bodyAt(0, 'content', 0));
    expectValid(check([], [ui.button({ label: 'Delete', action: 'delete', intent: 'destructive', confirm: { title: 'Delete?' } })]));
  });

  it('icon on a toned callout or badge', () => {
    const message = "Only neutral callouts take an icon; toned callouts show their tone's glyph";
    expectProblem(check([ui.callout({ tone: 'danger', icon: 'bug', title: 'T' })]), message, bodyAt(0, 'attrs', 'icon'));
    expectProblem(check([ui.item({ title: 'I' }, [ui.badge({ label: 'b', tone: 'success', icon: 'check' })])]), message, bodyAt(0, 'content', 1, 'attrs', 'icon'));
    expectValid(check([ui.callout({ tone: 'neutral', icon: 'bug', title: 'T' }), ui.callout({ icon: 'bug', title: 'T' })]));
  });

  it('toned icon without a label', () => {
    expectProblem(check([ui.item({ title: 'I' }, [ui.icon({ name: 'warning', tone: 'warning' })])]), 'Toned icons need a label', bodyAt(0, 'content', 1));
    expectValid(check([ui.item({ title: 'I' }, [ui.icon({ name: 'warning', tone: 'warning', label: 'Flaky' }), ui.icon({ name: 'star' })])]));
  });

  it('reserved icon', () => {
    const message = "That icon is reserved for the service's own controls";
    expectProblem(check([ui.item({ title: 'I' }, [ui.icon({ name: 'close' })])]), message, bodyAt(0, 'content', 1, 'attrs', 'name'));
    expectProblem(check([], [ui.button({ label: 'x', action: 'x', icon: 'more' })]), message);
    expectProblem(check([ui.metaList([ui.metaItem({ text: 'x', icon: 'spinner' })])]), message);
  });

  it('number format misfit', () => {
    expectProblem(check([ui.metrics([ui.metric({ label: 'M', value: 1, format: 'currency' })])]), 'Currency values need a currency code', bodyAt(0, 'content', 0, 'attrs'));
    expectProblem(check([ui.metrics([ui.metric({ label: 'M', value: 1, format: 'percent', currency: 'USD' })])]), 'Only currency values take a currency code', bodyAt(0, 'content', 0, 'attrs', 'currency'));
    expectProblem(check([ui.metrics([ui.metric({ label: 'M', value: 1, format: 'percent', unit: 'pp' })])]), 'Only plain numbers take a unit', bodyAt(0, 'content', 0, 'attrs', 'unit'));
    expectProblem(check([ui.table({ columns: [{ label: 'A', format: 'percent' }], rows: [] })]), 'Only number columns take a number format', bodyAt(0, 'attrs', 'columns', 0, 'format'));
    expectProblem(check([ui.table({ columns: [{ label: 'A', type: 'text', unit: 'h' }], rows: [] })]), 'Only plain numbers take a unit');
    expectProblem(check([ui.table({ columns: [{ label: 'A', type: 'number', format: 'currency' }], rows: [] })]), 'Currency values need a currency code');
    expectProblem(check([ui.chart({ chartType: 'bar', currency: 'EUR', series: [series('S', [1])] })]), 'Only currency values take a currency code');
    expectValid(check([ui.metrics([ui.metric({ label: 'M', value: 1.5, format: 'currency', currency: 'USD' }), ui.metric({ label: 'N', value: 3, unit: 'kg' })])]));
  });

  it('progress', () => {
    expectProblem(check([ui.progress({ value: 6, max: 5 })]), 'Progress value cannot exceed its maximum', bodyAt(0, 'attrs', 'value'));
    expectProblem(check([ui.progress({ value: 1.01 })]), 'Progress value cannot exceed its maximum');
    expectProblem(check([ui.progress({ value: 0.5, unit: 'tasks' })]), 'Progress needs a max to show a unit', bodyAt(0, 'attrs', 'unit'));
    expectValid(check([ui.progress({ value: 5, max: 5, unit: 'tasks' }), ui.progress({ value: 1 })]));
  });

  it('search select label', () => {
    const options = [{ value: 'a', label: 'A' }];
    expectProblem(check([ui.form([ui.select({ name: 's', label: 'S', options, value: 'a', selectedLabel: 'A' }), ui.submit({ label: 'Go', action: 'go' })])]), 'Only search selects take a selectedLabel', bodyAt(0, 'content', 0, 'attrs', 'selectedLabel'));
    expectProblem(check([ui.form([ui.select({ name: 's', label: 'S', search: 'find', value: 'u1' }), ui.submit({ label: 'Go', action: 'go' })])]), "A search select's value needs its selectedLabel", bodyAt(0, 'content', 0, 'attrs', 'value'));
    expectValid(check([ui.form([ui.select({ name: 's', label: 'S', search: 'find', value: 'u1', selectedLabel: 'Ada' }), ui.submit({ label: 'Go', action: 'go' })])]));
  });

  it('zero donut', () => {
    expectProblem(check([ui.chart({ chartType: 'donut', series: [series('S', [0, 0])] })]), 'Donut charts need a positive total', bodyAt(0, 'attrs', 'series'));
    expectValid(check([ui.chart({ chartType: 'donut', series: [series('S', [0, 2])] })]));
  });

  it('duplicate names', () => {
    expectProblem(check([ui.table({ columns: [{ label: 'Name' }, { label: ' name' }], rows: [] })]), 'Column labels must be unique', bodyAt(0, 'attrs', 'columns', 1, 'label'));
    expectProblem(check([ui.chart({ chartType: 'line', series: [series('Web', [1]), series('WEB', [2])] })]), 'Series names must be unique', bodyAt(0, 'attrs', 'series', 1, 'name'));
    const points = { name: 'S', points: [{ label: 'Mon', value: 1 }, { label: 'mon', value: 2 }] };
    expectProblem(check([ui.chart({ chartType: 'bar', series: [points] })]), 'Point labels must be unique', bodyAt(0, 'attrs', 'series', 0, 'points', 1, 'label'));
    const options = [{ value: 'a', label: 'Yes' }, { value: 'b', label: 'YES ' }];
    expectProblem(check([ui.select({ name: 's', label: 'S', onChange: 'pick', options })]), 'Select option labels must be unique', bodyAt(0, 'attrs', 'options', 1, 'label'));
    // Points repeat across series: only labels within one series must differ.
    expectValid(check([ui.chart({ chartType: 'bar', series: [series('A', [1, 2]), series('B', [3, 4])] })]));
  });

  it('a raw tree gets the same answers as a built one', () => {
    expectProblem(checkRaw([{ type: 'uiTabs', content: [{ type: 'uiTab', attrs: { label: 'A' } }] }]), 'Tabs hold 2 to 6 tabs', bodyAt(0));
  });
});
