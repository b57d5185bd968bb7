/**
 * Every row of the spec's "Text lengths" table: at the limit the tree passes, one character over it
 * fails with "Keep this to {max} characters or fewer" at the text's path. Characters are counted as
 * people see them: the test strings are graphemes of several UTF-16 units each.
 */
import { describe, expect, it } from 'vitest';
import { type Draft, bodyAt, check, expectProblem, expectValid, graphemes, renderTree, ui, validateTree } from './helpers.ts';

type Case = readonly [row: string, max: number, make: (s: string) => { body?: Draft[]; bar?: Draft[] }, path: Array<string | number>];

const form = (...fields: Draft[]) => ui.form([...fields, ui.submit({ label: 'Go', action: 'go' })]);
const field = (extra: Record<string, unknown> = {}) => ({ name: 'f', label: 'F', ...extra });
const choices = (label: string, description?: string) => [{ value: 'a', label, ...(description === undefined ? {} : { description }) }];
const table = (columns: Array<Record<string, unknown>>, cells: unknown[] = [], title?: string) =>
  ui.table({ title, columns: columns as never, rows: cells.length ? [{ cells: cells as never }] : [] });
const chart = (name: string, point: string, title?: string) => ui.chart({ chartType: 'bar', title, series: [{ name, points: [{ label: point, value: 1 }] }] });
const b = (body: Draft[]) => ({ body });

const CASES: Case[] = [
  ['Header title', 80, (s) => b([ui.header({ title: s })]), bodyAt(0, 'content', 0)],
  ['Item title', 80, (s) => b([ui.item({ title: s })]), bodyAt(0, 'content', 0)],
  ['Header trailing text', 24, (s) => b([ui.header({ title: 'T', trailing: s })]), bodyAt(0, 'attrs', 'trailing')],
  ['Item trailing text', 24, (s) => b([ui.item({ title: 'T', trailing: s })]), bodyAt(0, 'attrs', 'trailing')],
  ['Item description', 280, (s) => b([ui.item({ title: 'T', description: s })]), bodyAt(0, 'attrs', 'description')],
  ['MetaItem', 60, (s) => b([ui.metaList([ui.metaItem({ text: s })])]), bodyAt(0, 'content', 0, 'attrs', 'text')],
  ['Fact value', 120, (s) => b([ui.facts([ui.fact({ label: 'L', value: s })])]), bodyAt(0, 'content', 0, 'attrs', 'value')],
  ['Button label', 32, (s) => ({ bar: [ui.button({ label: s, action: 'a' })] }), ['content', 0, 'content', 0, 'attrs', 'label']],
  ['Menu label', 32, (s) => ({ bar: [ui.menu({ label: s }, [ui.menuItem({ label: 'i', action: 'a' })])] }), ['content', 0, 'content', 0, 'attrs', 'label']],
  ['MenuItem label', 32, (s) => ({ bar: [ui.menu({ label: 'M' }, [ui.menuItem({ label: s, action: 'a' })])] }), ['content', 0, 'content', 0, 'content', 0, 'attrs', 'label']],
  ['Form submit label', 32, (s) => b([ui.form([ui.submit({ label: s, action: 'go' })])]), bodyAt(0, 'content', 0, 'attrs', 'label')],
  ['Tab label', 32, (s) => b([ui.tabs([ui.tab({ label: s }, []), ui.tab({ label: 'B' }, [])])]), bodyAt(0, 'content', 0, 'attrs', 'label')],
  ['Badge label', 32, (s) => b([ui.item({ title: 'T' }, [ui.badge({ label: s })])]), bodyAt(0, 'content', 1, 'attrs', 'label')],
  ['Status label', 32, (s) => b([ui.item({ title: 'T' }, [ui.status({ label: s })])]), bodyAt(0, 'content', 1, 'attrs', 'label')],
  ['Icon label', 32, (s) => b([ui.item({ title: 'T' }, [ui.icon({ name: 'star', label: s })])]), bodyAt(0, 'content', 1, 'attrs', 'label')],
  ['Fact label', 32, (s) => b([ui.facts([ui.fact({ label: s, value: 'v' })])]), bodyAt(0, 'content', 0, 'attrs', 'label')],
  ['Metric label', 32, (s) => b([ui.metrics([ui.metric({ label: s, value: 1 })])]), bodyAt(0, 'content', 0, 'attrs', 'label')],
  ['status cell', 32, (s) => b([table([{ label: 'A', type: 'status' }], [{ label: s }])]), bodyAt(0, 'attrs', 'rows', 0, 'cells', 0, 'label')],
  ['badge cell', 32, (s) => b([table([{ label: 'A', type: 'badge' }], [{ label: s }])]), bodyAt(0, 'attrs', 'rows', 0, 'cells', 0, 'label')],
  ['Table column label', 24, (s) => b([table([{ label: s }])]), bodyAt(0, 'attrs', 'columns', 0, 'label')],
  ['Chart series name', 24, (s) => b([chart(s, 'p')]), bodyAt(0, 'attrs', 'series', 0, 'name')],
  ['Chart point label', 24, (s) => b([chart('S', s)]), bodyAt(0, 'attrs', 'series', 0, 'points', 0, 'label')],
  ['Section title', 60, (s) => b([ui.section({ title: s }, [])]), bodyAt(0, 'attrs', 'title')],
  ['Tabs title', 60, (s) => b([ui.tabs({ title: s }, [ui.tab({ label: 'A' }, []), ui.tab({ label: 'B' }, [])])]), bodyAt(0, 'attrs', 'title')],
  ['TextInput label', 60, (s) => b([form(ui.textInput(field({ label: s })))]), bodyAt(0, 'content', 0, 'attrs', 'label')],
  ['Select label', 60, (s) => b([ui.select({ ...field({ label: s }), onChange: 'c', options: choices('A') })]), bodyAt(0, 'attrs', 'label')],
  ['ChoiceGroup label', 60, (s) => b([ui.choiceGroup({ ...field({ label: s }), onChange: 'c', choices: choices('A') })]), bodyAt(0, 'attrs', 'label')],
  ['Toggle label', 60, (s) => b([ui.toggle({ ...field({ label: s }), onChange: 'c' })]), bodyAt(0, 'attrs', 'label')],
  ['choice label', 60, (s) => b([ui.choiceGroup({ ...field(), onChange: 'c', choices: choices(s) })]), bodyAt(0, 'attrs', 'choices', 0, 'label')],
  ['option label', 60, (s) => b([ui.select({ ...field(), onChange: 'c', options: choices(s) })]), bodyAt(0, 'attrs', 'options', 0, 'label')],
  ['TextInput placeholder', 60, (s) => b([form(ui.textInput(field({ placeholder: s })))]), bodyAt(0, 'content', 0, 'attrs', 'placeholder')],
  ['Select placeholder', 60, (s) => b([ui.select({ ...field({ placeholder: s }), onChange: 'c', options: choices('A') })]), bodyAt(0, 'attrs', 'placeholder')],
  ['Progress label', 60, (s) => b([ui.progress({ value: 0, label: s })]), bodyAt(0, 'attrs', 'label')],
  ['AvatarStack label', 60, (s) => b([ui.avatarStack({ people: [{ name: 'A' }], label: s })]), bodyAt(0, 'attrs', 'label')],
  ['Quote attribution', 60, (s) => b([ui.quote('q', { attribution: s })]), bodyAt(0, 'attrs', 'attribution')],
  ['link cell label', 60, (s) => b([table([{ label: 'A', type: 'link' }], [{ label: s, href: 'https://a.example.com' }])]), bodyAt(0, 'attrs', 'rows', 0, 'cells', 0, 'label')],
  ['Person name (avatar stack)', 64, (s) => b([ui.avatarStack({ people: [{ name: s }] })]), bodyAt(0, 'attrs', 'people', 0, 'name')],
  ['Person name (person cell)', 64, (s) => b([table([{ label: 'A', type: 'person' }], [{ name: s }])]), bodyAt(0, 'attrs', 'rows', 0, 'cells', 0, 'name')],
  ['Callout title', 80, (s) => b([ui.callout({ title: s })]), bodyAt(0, 'attrs', 'title')],
  ['Chart title', 80, (s) => b([chart('S', 'p', s)]), bodyAt(0, 'attrs', 'title')],
  ['Table title', 80, (s) => b([table([{ label: 'A' }], [], s)]), bodyAt(0, 'attrs', 'title')],
  ['confirm title', 80, (s) => ({ bar: [ui.button({ label: 'B', action: 'a', intent: 'destructive', confirm: { title: s } })] }), ['content', 0, 'content', 0, 'attrs', 'confirm', 'title']],
  ['Step label', 80, (s) => b([ui.step({ label: s })]), bodyAt(0, 'attrs', 'label')],
  ['File name', 120, (s) => b([ui.file({ name: s, url: 'https://f.example.com/a' })]), bodyAt(0, 'attrs', 'name')],
  ['Image alt', 200, (s) => b([ui.image({ src: 'https://i.example.com/a.png', alt: s })]), bodyAt(0, 'attrs', 'alt')],
  ['Step description', 280, (s) => b([ui.step({ label: 'S', description: s })]), bodyAt(0, 'attrs', 'description')],
  ['choice description', 280, (s) => b([ui.choiceGroup({ ...field(), onChange: 'c', choices: choices('A', s) })]), bodyAt(0, 'attrs', 'choices', 0, 'description')],
  ['Toggle description', 280, (s) => b([ui.toggle({ ...field(), onChange: 'c', description: s })]), bodyAt(0, 'attrs', 'description')],
  ['confirm body', 280, (s) => ({ bar: [ui.button({ label: 'B', action: 'a', confirm: { title: 'T', body: s } })] }), ['content', 0, 'content', 0, 'attrs', 'confirm', 'body']],
  ['unit (metric)', 12, (s) => b([ui.metrics([ui.metric({ label: 'M', value: 1, unit: s })])]), bodyAt(0, 'content', 0, 'attrs', 'unit')],
  ['unit (progress)', 12, (s) => b([ui.progress({ value: 1, max: 2, unit: s })]), bodyAt(0, 'attrs', 'unit')],
  ['unit (table column)', 12, (s) => b([table([{ label: 'A', type: 'number', unit: s }])]), bodyAt(0, 'attrs', 'columns', 0, 'unit')],
  ['unit (chart)', 12, (s) => b([ui.chart({ chartType: 'bar', unit: s, series: [{ name: 'S', points: [{ label: 'p', value: 1 }] }] })]), bodyAt(0, 'attrs', 'unit')],
  ['Copy text', 2000, (s) => ({ bar: [ui.copyButton({ label: 'Copy', copyText: s })] }), ['content', 0, 'content', 0, 'attrs', 'copyText']],
  ['TextInput value', 2000, (s) => b([form(ui.textInput(field({ value: s })))]), bodyAt(0, 'content', 0, 'attrs', 'value')],
  ['Text in Footer', 120, (s) => ({ bar: [], footer: s }) as never, ['content', 1]],
];

function run(make: Case[2], s: string) {
  const parts = make(s) as { body?: Draft[]; bar?: Draft[]; footer?: string };
  if (parts.footer !== undefined) {
    // The footer comes after the actions bar, so it is built here rather than by `check`.
    const { tree, actions } = renderTree(ui.block({ summary: 'S' }, [ui.actions([]), ui.footer(parts.footer)]));
    return validateTree(tree, actions);
  }
  return check(parts.body ?? [], parts.bar ?? []);
}

describe('text lengths (characters as people see them)', () => {
  it.each(CASES)('%s: at most %i', (_row, max, make, path) => {
    expectValid(run(make, graphemes(max)));
    expectProblem(run(make, graphemes(max + 1)), `Keep this to ${max.toLocaleString('en-US')} characters or fewer`, path);
  });

  it('counts a family emoji as one character and CRLF as one', () => {
    expect(graphemes(3)).toHaveLength(9);
    expectValid(check([ui.step({ label: '👨‍👩‍👧‍👦'.repeat(80) })]));
    expectValid(check([ui.step({ label: 'a\r\n'.repeat(40) })]));
    expectProblem(check([ui.step({ label: 'a\r\n'.repeat(40) + 'b' })]), 'Keep this to 80 characters or fewer');
  });
});
