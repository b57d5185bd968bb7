/**
 * One test per structural row of the spec's "Tree validation messages" table: the problem gets the
 * exact message (braces filled in) and the path of the node; the corrected tree passes.
 */
import { describe, it } from 'vitest';
import { bodyAt, check, checkRaw, expectProblem, expectValid, renderTree, ui, validateTree } from './helpers.ts';

const header = ui.header({ title: 'Title' });
const text = ui.text('Body');

describe('tree validation messages: structure', () => {
  it('root child out of order', () => {
    const { tree, actions } = renderTree(ui.block({ summary: 'S' }, [text, header, ui.actions([])]));
    expectProblem(validateTree(tree, actions), "Blocks go header, body, actions, footer: <Block> can't hold <Header> here", ['content', 1]);
    const after = renderTree(ui.block({ summary: 'S' }, [header, ui.actions([]), text]));
    expectProblem(validateTree(after.tree, after.actions), "Blocks go header, body, actions, footer: <Block> can't hold <Text> here", ['content', 2]);
    const footerFirst = renderTree(ui.block({ summary: 'S' }, [ui.footer('f'), header, ui.actions([])]));
    expectProblem(validateTree(footerFirst.tree, footerFirst.actions), "Blocks go header, body, actions, footer: <Block> can't hold <Footer> here", ['content', 0]);
    const twoActions = renderTree(ui.block({ summary: 'S' }, [ui.actions([]), ui.actions([])]));
    expectProblem(validateTree(twoActions.tree, twoActions.actions), "Blocks go header, body, actions, footer: <Block> can't hold <Actions> here", ['content', 1]);
    const ordered = renderTree(ui.block({ summary: 'S' }, [header, text, ui.actions([]), ui.footer('f')]));
    expectValid(validateTree(ordered.tree, ordered.actions));
  });

  it('child a container does not take: "{parent} can\'t hold {child} here" and "{parent} needs ..."', () => {
    expectProblem(check([ui.row([ui.text('a'), ui.image({ src: 'https://i.example.com/a.png', alt: 'A' })])]), "<Row> can't hold <Image> here", bodyAt(0, 'content', 1));
    expectProblem(check([ui.metrics([ui.text('a')])]), "<Metrics> can't hold <Text> here", bodyAt(0, 'content', 0));
    expectProblem(checkRaw([{ type: 'uiHeader', content: [{ type: 'uiBadge', attrs: { label: 'b' } }] }]), '<Header> needs a <HeaderTitle>', bodyAt(0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'uiBadge', attrs: { label: 'b' } }] }]), "<Text> can't hold <Badge> here", bodyAt(0, 'content', 0));
    expectProblem(checkRaw([{ type: 'uiButton', attrs: { buttonType: 'link', label: 'x', href: 'https://a.example.com' } }]), "<Block> can't hold <Button> here", bodyAt(0));
    expectProblem(checkRaw([{ type: 'uiStep', attrs: { label: 'x' }, content: [{ type: 'text', text: 'y' }] }]), "<Step> can't hold text here", bodyAt(0, 'content', 0));
    const noActions = validateTree({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [] }, {});
    expectProblem(noActions, '<Block> needs one <Actions>', []);
  });

  it('section in section, and deeper', () => {
    expectProblem(check([ui.section([ui.section([text])])]), "<Section> can't hold <Section> here", bodyAt(0, 'content', 0));
    expectProblem(check([ui.section([ui.stack([ui.section([text])])])]), 'Sections sit only at block, tab or form level, one deep', bodyAt(0, 'content', 0, 'content', 0));
    expectProblem(check([ui.columns([ui.column([ui.section([text])]), ui.column([text])])]), 'Sections sit only at block, tab or form level, one deep', bodyAt(0, 'content', 0, 'content', 0));
    expectValid(check([ui.section([text]), ui.tabs([ui.tab({ label: 'A' }, [ui.section([text])]), ui.tab({ label: 'B' }, [text])])]));
    expectValid(check([ui.form([ui.section([ui.textInput({ name: 'n', label: 'N' })]), ui.submit({ label: 'Go', action: 'go' })])]));
  });

  it('tabs in tabs', () => {
    const inner = ui.tabs([ui.tab({ label: 'A' }, [text]), ui.tab({ label: 'B' }, [text])]);
    expectProblem(check([ui.tabs([ui.tab({ label: 'A' }, [inner]), ui.tab({ label: 'B' }, [text])])]), 'Tabs cannot be nested', bodyAt(0, 'content', 0, 'content', 0));
  });

  it('form in form', () => {
    const inner = ui.form([ui.submit({ label: 'Inner', action: 'go' })]);
    expectProblem(check([ui.form([inner, ui.submit({ label: 'Go', action: 'go' })])]), 'Forms cannot be nested', bodyAt(0, 'content', 0));
    expectProblem(check([ui.form([ui.stack([inner]), ui.submit({ label: 'Go', action: 'go' })])]), 'Forms cannot be nested', bodyAt(0, 'content', 0, 'content', 0));
  });

  it("extra content in a form's last row", () => {
    const field = ui.textInput({ name: 'n', label: 'N' });
    expectProblem(check([ui.form([field, ui.submit({ label: 'Go', action: 'go' }), ui.text('after')])]), 'A form ends with one submit button and nothing else', bodyAt(0, 'content', 2));
    expectProblem(check([ui.form([field, ui.submit({ label: 'Go', action: 'go' }), ui.submit({ label: 'Again', action: 'go' })])]), 'A form ends with one submit button and nothing else', bodyAt(0, 'content', 2));
    expectProblem(check([ui.form([field])]), '<Form> needs a submit <Button> in its last row', bodyAt(0));
    expectProblem(check([ui.form([field, ui.button({ label: 'Other', action: 'go' }), ui.submit({ label: 'Go', action: 'go' })])]), "<Form> can't hold <Button> here", bodyAt(0, 'content', 1));
  });

  it('submit outside the last row', () => {
    expectProblem(check([], [ui.submit({ label: 'Go', action: 'go' })]), "Submit buttons belong in a form's last row", ['content', 0, 'content', 0]);
    const inRow = ui.row([ui.text('a'), ui.submit({ label: 'Go', action: 'go' })]);
    expectProblem(check([ui.form([inRow, ui.submit({ label: 'Go', action: 'go' })])]), "Submit buttons belong in a form's last row", bodyAt(0, 'content', 0, 'content', 1));
  });

  it('field outside a form', () => {
    expectProblem(check([ui.textInput({ name: 'n', label: 'N' })]), '<TextInput> belongs inside a <Form>', bodyAt(0));
    expectProblem(check([ui.section([ui.select({ name: 's', label: 'S', options: [{ value: 'a', label: 'A' }] })])]), '<Select> belongs inside a <Form>', bodyAt(0, 'content', 0));
    expectProblem(check([ui.toggle({ name: 't', label: 'T' })]), '<Toggle> belongs inside a <Form>', bodyAt(0));
    expectValid(check([ui.toggle({ name: 't', label: 'T', onChange: 'set' })]));
  });

  it('wide component in a column', () => {
    const chart = ui.chart({ chartType: 'bar', series: [{ name: 'S', points: [{ label: 'a', value: 1 }] }] });
    expectProblem(check([ui.columns([ui.column([chart]), ui.column([text])])]), '<Chart> needs the full width; move it out of the <Column>', bodyAt(0, 'content', 0, 'content', 0));
    const table = ui.table({ columns: [{ label: 'A' }], rows: [] });
    expectProblem(check([ui.columns([ui.column([text]), ui.column([ui.stack([table])])])]), '<Table> needs the full width; move it out of the <Column>', bodyAt(0, 'content', 1, 'content', 0, 'content', 0));
    expectProblem(check([ui.columns([ui.column([ui.metrics([ui.metric({ label: 'M', value: 1 })])]), ui.column([text])])]), '<Metrics> needs the full width; move it out of the <Column>');
    expectValid(check([chart, table]));
  });

  it('stack in stack', () => {
    expectProblem(check([ui.stack([ui.stack([text])])]), 'Stacks cannot hold another stack', bodyAt(0, 'content', 0));
    expectProblem(check([ui.stack([ui.columns([ui.column([ui.stack([text])]), ui.column([text])])])]), 'Stacks cannot hold another stack');
  });

  it('unopenable collapsed section', () => {
    expectProblem(check([ui.section({ collapsed: true }, [text])]), 'A collapsed section needs a title or a toggle button', bodyAt(0));
    expectProblem(check([ui.section({ collapsed: true, handle: 'log' }, [text])]), 'A collapsed section needs a title or a toggle button', bodyAt(0));
    expectValid(check([ui.section({ collapsed: true, title: 'Log' }, [text])]));
    // The toggle may come after the section it opens.
    expectValid(check([ui.section({ collapsed: true, handle: 'log' }, [text])], [ui.toggleButton({ label: 'Show log', target: 'log' })]));
  });

  it('toggle for a missing section', () => {
    expectProblem(check([ui.section({ handle: 'log' }, [text])], [ui.toggleButton({ label: 'Show', target: 'logs' })]), 'No section has the handle logs', ['content', 1, 'content', 0, 'attrs', 'target']);
  });
});
