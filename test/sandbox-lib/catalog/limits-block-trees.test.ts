/**
 * Every row of the spec's "Block trees" limits: at the limit the tree passes, one over it fails
 * with the exact message. (Text rows and URL rows have their own files.)
 */
import { describe, expect, it } from 'vitest';
import { type Draft, ascii, bodyAt, check, expectProblem, expectValid, graphemes, renderTree, times, ui, validateTree } from './helpers.ts';

const text = ui.text('t');
const button = (i: number) => ui.button({ label: `B${i}`, action: `act${i}` });
const validate = (children: Draft[], summary = 'S') => {
  const { tree, actions } = renderTree(ui.block({ summary }, children));
  return validateTree(tree, actions);
};

/** Wraps `inner` in `levels` nested containers that may nest freely (sections cannot, so tabs/columns/stack). */
function nested(prose: Draft, withStack: boolean): Draft {
  const column = ui.column([withStack ? ui.stack([prose]) : prose]);
  return ui.tabs([ui.tab({ label: 'A' }, [ui.section([ui.columns([column, ui.column([text])])])]), ui.tab({ label: 'B' }, [text])]);
}

describe('block tree limits', () => {
  it('components per block: 250, plain text excluded', () => {
    // uiBlock + uiActions + 248 texts = 250 components (their text nodes do not count); with 249
    // texts, the actions bar after them is the 251st.
    expectValid(validate([...times(248, () => text), ui.actions([])]));
    expectProblem(validate([...times(249, () => text), ui.actions([])]), 'Blocks hold at most 250 components', ['content', 249]);
  });

  it('nesting depth: 12', () => {
    // block > tabs > tab > section > columns > column > prose > list > item > list > item > paragraph = 12
    const prose = ui.prose([ui.bulletList([ui.listItem([ui.paragraph('1'), ui.bulletList(['2'])])])]);
    expectValid(check([nested(prose, false)]));
    const deeper = check([nested(prose, true)]);
    expectProblem(deeper, 'Blocks nest at most 12 levels deep');
    expect(deeper.valid === false && deeper.path.filter((p) => p === 'content')).toHaveLength(12);
  });

  it('serialized tree: 64 KB', () => {
    // Eight texts of 2,000 four-byte characters, then plain text to fill up to the byte.
    const heavy = times(8, () => ui.text('😀'.repeat(2000)));
    const sizeWith = (pad: number) => Buffer.byteLength(JSON.stringify(renderTree(ui.block({ summary: 'S' }, [...heavy, ui.text(ascii(pad)), ui.actions([])])).tree));
    const pad = 1000 + 65_536 - sizeWith(1000);
    expect(sizeWith(pad)).toBe(65_536);
    expectValid(validate([...heavy, ui.text(ascii(pad)), ui.actions([])]));
    expectProblem(validate([...heavy, ui.text(ascii(pad + 1)), ui.actions([])]), 'Blocks serialize to at most 64 KB', []);
  });

  it('text per component, per Prose and per block: 2,000 / 10,000 / 20,000', () => {
    expectValid(check([ui.text([ascii(1000), ui.bold(graphemes(1000))])]));
    expectProblem(check([ui.text([ascii(1000), ui.bold(graphemes(1001))])]), 'Keep this to 2,000 characters or fewer', bodyAt(0));
    expectValid(check([ui.callout({ title: 'T' }, ascii(2000)), ui.quote(ascii(2000))]));
    expectProblem(check([ui.quote(ascii(2001))]), 'Keep this to 2,000 characters or fewer', bodyAt(0));
    const paragraphs = (last: number) => [...times(4, () => ui.paragraph(ascii(2000))), ui.bulletList([ascii(last)])];
    expectValid(check([ui.prose(paragraphs(2000))]));
    expectProblem(check([ui.prose(paragraphs(2001))]), 'Keep this to 10,000 characters or fewer', bodyAt(0));
    // Summary (1) + labels and text everywhere count toward the block's 20,000.
    const texts = (last: number) => [...times(9, () => ui.text(ascii(2000))), ui.text(ascii(last)), ui.actions([])];
    expectValid(validate(texts(1999)));
    expectProblem(validate(texts(2000)), 'Keep this to 20,000 characters or fewer', []);
    expectProblem(validate([...times(9, () => ui.text(ascii(2000))), ui.text(ascii(1990)), ui.actions([ui.button({ label: 'Ten chars!', action: 'a' })])]), 'Keep this to 20,000 characters or fewer', []);
  });

  it('summary: at most 280 visible characters, required', () => {
    expectValid(validate([ui.actions([])], graphemes(280)));
    expectProblem(validate([ui.actions([])], graphemes(281)), 'Keep this to 280 characters or fewer', ['attrs', 'summary']);
    expectProblem(validate([ui.actions([])], ' '), 'Labels need visible text', ['attrs', 'summary']);
    expectProblem(validateTree({ type: 'uiBlock', attrs: { catalog: 1 }, content: [{ type: 'uiActions' }] }), '<Block> needs "summary"', []);
  });

  it('root Actions per block: exactly 1', () => {
    expectValid(validate([ui.actions([])]));
    expectProblem(validate([ui.actions([]), ui.actions([])]), "Blocks go header, body, actions, footer: <Block> can't hold <Actions> here", ['content', 1]);
    expectProblem(validate([text]), '<Block> needs one <Actions>', []);
  });

  it('buttons per Actions: 5, then optionally one Menu at the end', () => {
    const menu = ui.menu({ label: 'More' }, [ui.menuItem({ label: 'x', action: 'x' })]);
    expectValid(check([], [...times(5, button), menu]));
    expectProblem(check([], times(6, button)), 'Actions hold at most 5 buttons, then one menu', ['content', 0, 'content', 5]);
    expectProblem(check([], [button(0), menu, ui.menu({ label: 'Else' }, [ui.menuItem({ label: 'y', action: 'y' })])]), 'Actions hold at most 5 buttons, then one menu', ['content', 0, 'content', 2]);
    expectProblem(check([], [menu, button(0)]), "<Actions> can't hold <Button> here", ['content', 0, 'content', 1]);
  });

  it('buttons and menus per Row: 3, after one or two Text or AvatarStack', () => {
    const people = ui.avatarStack({ people: [{ name: 'A' }] });
    const menu = ui.menu({ label: 'More' }, [ui.menuItem({ label: 'x', action: 'x' })]);
    const message = 'Rows hold one or two texts or avatar stacks, then at most 3 buttons and menus';
    expectValid(check([ui.row([text, people, button(0), button(1), menu]), ui.row([text])]));
    expectProblem(check([ui.row([text, ...times(4, button)])]), message, bodyAt(0, 'content', 4));
    expectProblem(check([ui.row([button(0)])]), message, bodyAt(0));
    expectProblem(check([ui.row([text, text, people, button(0)])]), message, bodyAt(0, 'content', 2));
  });

  it('items per Menu: 12', () => {
    const items = (n: number) => times(n, (i) => ui.menuItem({ label: `I${i}`, action: 'x' }));
    expectValid(check([], [ui.menu({ label: 'M' }, items(12))]));
    expectProblem(check([], [ui.menu({ label: 'M' }, items(13))]), 'Menus hold at most 12 items', ['content', 0, 'content', 0, 'content', 12]);
    expectProblem(check([], [ui.menu({ label: 'M' }, [])]), '<Menu> needs at least one <MenuItem>', ['content', 0, 'content', 0]);
  });

  it('values per choice input: 20', () => {
    const group = (n: number) => ui.choiceGroup({ name: 'c', label: 'C', onChange: 'pick', choices: times(n, (i) => ({ value: `v${i}`, label: `L${i}` })) });
    expectValid(check([group(20)]));
    expectProblem(check([group(21)]), 'Choice groups hold at most 20 choices', bodyAt(0, 'attrs', 'choices', 20));
  });

  it('images per block: 10', () => {
    const image = () => ui.image({ src: 'https://i.example.com/a.png', alt: 'A' });
    expectValid(check([...times(9, image), ui.section([image()])]));
    expectProblem(check([...times(10, image), ui.section([image()])]), 'Blocks hold at most 10 images', bodyAt(10, 'content', 0));
  });

  it('columns: 2 or 3', () => {
    const columns = (n: number) => ui.columns(times(n, () => ui.column([text])));
    expectValid(check([columns(2), columns(3)]));
    expectProblem(check([columns(4)]), 'Columns hold 2 or 3 columns', bodyAt(0, 'content', 3));
    expectProblem(check([columns(1)]), 'Columns hold 2 or 3 columns', bodyAt(0));
  });

  it('tabs: 2 to 6, never nested', () => {
    const tabs = (n: number) => ui.tabs(times(n, (i) => ui.tab({ label: `T${i}` }, [text])));
    expectValid(check([tabs(2), tabs(6)]));
    expectProblem(check([tabs(7)]), 'Tabs hold 2 to 6 tabs', bodyAt(0, 'content', 6));
    expectProblem(check([tabs(1)]), 'Tabs hold 2 to 6 tabs', bodyAt(0));
    expectProblem(check([ui.tabs([ui.tab({ label: 'A' }, [tabs(2)]), ui.tab({ label: 'B' }, [])])]), 'Tabs cannot be nested');
  });

  it('metrics per Metrics: 1 to 6; items per MetaList: 1 to 6', () => {
    const metrics = (n: number) => ui.metrics(times(n, (i) => ui.metric({ label: `M${i}`, value: i })));
    expectValid(check([metrics(1), metrics(6)]));
    expectProblem(check([metrics(7)]), 'Metrics hold at most 6 metrics', bodyAt(0, 'content', 6));
    expectProblem(check([metrics(0)]), '<Metrics> needs at least one <Metric>', bodyAt(0));
    const meta = (n: number) => ui.metaList(times(n, (i) => ui.metaItem({ text: `m${i}` })));
    expectValid(check([meta(1), meta(6)]));
    expectProblem(check([meta(7)]), 'Meta lists hold at most 6 items', bodyAt(0, 'content', 6));
    expectProblem(check([meta(0)]), '<MetaList> needs at least one <MetaItem>', bodyAt(0));
  });

  it('section depth: 1', () => {
    expectValid(check([ui.section([text])]));
    expectProblem(check([ui.section([ui.section([text])])]), "<Section> can't hold <Section> here", bodyAt(0, 'content', 0));
  });

  it('list depth in Prose: 2', () => {
    const two = ui.bulletList([ui.listItem([ui.paragraph('1'), ui.orderedList(['2'])])]);
    expectValid(check([ui.prose([two])]));
    const three = ui.bulletList([ui.listItem([ui.paragraph('1'), ui.orderedList([ui.listItem([ui.paragraph('2'), ui.bulletList(['3'])])])])]);
    expectProblem(check([ui.prose([three])]), 'Lists nest at most 2 levels');
  });
});
