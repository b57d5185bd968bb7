/**
 * One test per text, label, formatting and audience row of the spec's "Tree validation messages".
 */
import { describe, it } from 'vitest';
import { bodyAt, check, checkRaw, expectProblem, expectValid, ui, validateTree } from './helpers.ts';

const text = ui.text('Body');

describe('tree validation messages: labels and text', () => {
  it('duplicate label, case and extra spaces ignored, in every group the spec lists', () => {
    const used = (label: string, group: string) => `"${label}" is used twice in this ${group}; labels must be unique`;
    expectProblem(check([], [ui.button({ label: 'Approve', action: 'a' }), ui.button({ label: ' APPROVE ', action: 'b' })]), used('APPROVE', '<Actions>'), ['content', 0, 'content', 1, 'attrs', 'label']);
    expectProblem(check([], [ui.button({ label: 'More  options', action: 'a' }), ui.menu({ label: 'more options' }, [ui.menuItem({ label: 'x', action: 'x' })])]), used('more options', '<Actions>'));
    expectProblem(check([ui.row([text, ui.button({ label: 'Go', action: 'a' }), ui.button({ label: 'go', action: 'b' })])]), used('go', '<Row>'), bodyAt(0, 'content', 2, 'attrs', 'label'));
    expectProblem(check([], [ui.menu({ label: 'M' }, [ui.menuItem({ label: 'Mute', action: 'a' }), ui.menuItem({ label: 'mute', href: 'https://a.example.com' })])]), used('mute', '<Menu>'));
    expectProblem(check([ui.tabs([ui.tab({ label: 'One' }, [text]), ui.tab({ label: 'one' }, [text])])]), used('one', '<Tabs>'), bodyAt(0, 'content', 1, 'attrs', 'label'));
    expectProblem(check([ui.facts([ui.fact({ label: 'Owner', value: 'a' }), ui.fact({ label: 'owner', value: 'b' })])]), used('owner', '<Facts>'));
    expectProblem(check([ui.metrics([ui.metric({ label: 'Cost', value: 1 }), ui.metric({ label: 'COST', value: 2 })])]), used('COST', '<Metrics>'));
    const choices = [{ value: 'a', label: 'Yes' }, { value: 'b', label: 'yes' }];
    expectProblem(check([ui.choiceGroup({ name: 'c', label: 'C', onChange: 'pick', choices })]), used('yes', '<ChoiceGroup>'), bodyAt(0, 'attrs', 'choices', 1, 'label'));
    const menu = [{ label: 'Open', href: 'https://a.example.com' }, { label: 'open', action: 'x' }];
    expectProblem(check([ui.table({ columns: [{ label: 'A' }], rows: [{ cells: ['x'], menu }] })]), used('open', '<Menu>'));
    // A Row's text is not one of its labels; the same label in two groups is fine.
    expectValid(check([ui.row([ui.avatarStack({ people: [{ name: 'A' }], label: 'Go' }), ui.button({ label: 'Go', action: 'a' })])], [ui.button({ label: 'Go', action: 'a' })]));
  });

  it('label without visible text', () => {
    expectProblem(check([], [ui.button({ label: ' \u200b\t', action: 'a' })]), 'Labels need visible text', ['content', 0, 'content', 0, 'attrs', 'label']);
    expectProblem(check([ui.header({ title: '\u3164' })]), 'Labels need visible text', bodyAt(0, 'content', 0));
    expectProblem(check([ui.metrics([ui.metric({ label: '', value: 1 })])]), 'Labels need visible text');
    expectProblem(check([ui.table({ columns: [{ label: 'A', type: 'badge' }], rows: [{ cells: [{ label: '  ' }] }] })]), 'Labels need visible text', bodyAt(0, 'attrs', 'rows', 0, 'cells', 0, 'label'));
    expectValid(check([], [ui.button({ label: '👍', action: 'a' })]));
  });

  it('empty code block', () => {
    expectProblem(check([ui.prose([ui.codeBlock('  \n ')])]), 'Code blocks need visible text', bodyAt(0, 'content', 0));
    expectProblem(check([ui.prose([ui.codeBlock('')])]), 'Code blocks need visible text', bodyAt(0, 'content', 0));
  });

  it('over length', () => {
    expectProblem(check([ui.step({ label: 'x'.repeat(81) })]), 'Keep this to 80 characters or fewer', bodyAt(0, 'attrs', 'label'));
    expectProblem(check([ui.text('y'.repeat(2001))]), 'Keep this to 2,000 characters or fewer', bodyAt(0));
  });

  it('prose nesting', () => {
    const deep = ui.bulletList([ui.listItem([ui.paragraph('1'), ui.bulletList([ui.listItem([ui.paragraph('2'), ui.orderedList(['3'])])])])]);
    expectProblem(check([ui.prose([deep])]), 'Lists nest at most 2 levels', bodyAt(0, 'content', 0, 'content', 0, 'content', 1, 'content', 0, 'content', 1));
    expectProblem(check([ui.prose([ui.blockquote([ui.paragraph('a'), ui.blockquote([ui.paragraph('b')])])])]), 'Quotes cannot hold quotes', bodyAt(0, 'content', 0, 'content', 1));
    expectProblem(check([ui.prose([ui.bulletList([ui.listItem([ui.paragraph('a'), ui.heading(2, 'H')])])])]), "Headings and code blocks can't sit in a list or quote");
    expectProblem(check([ui.prose([ui.blockquote([ui.paragraph('a'), ui.codeBlock('x')])])]), "Headings and code blocks can't sit in a list or quote", bodyAt(0, 'content', 0, 'content', 1));
  });

  it('struck link', () => {
    expectProblem(check([ui.text(ui.span('old', { strike: true, href: 'https://a.example.com' }))]), "Struck text can't be a link", bodyAt(0, 'content', 0, 'marks'));
  });

  it("link in a linked header's or item's title", () => {
    const linkTitle = ['See ', ui.link('this', 'https://a.example.com')];
    expectProblem(check([ui.header({ title: linkTitle, href: 'https://b.example.com' })]), "A linked header's title can't hold links", bodyAt(0, 'content', 0, 'content', 1, 'marks', 0));
    expectProblem(check([ui.item({ title: linkTitle, href: 'https://b.example.com' })]), "A linked item's title can't hold links", bodyAt(0, 'content', 0, 'content', 1, 'marks', 0));
    expectValid(check([ui.header({ title: linkTitle }), ui.item({ title: linkTitle })]));
  });

  it('disallowed or repeated formatting', () => {
    expectProblem(check([ui.header({ title: ui.bold('Loud') })]), "Text has formatting that's repeated or not allowed inside <HeaderTitle>", bodyAt(0, 'content', 0, 'content', 0, 'marks', 0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 'x', marks: [{ type: 'bold' }, { type: 'bold' }] }] }]), "Text has formatting that's repeated or not allowed inside <Text>", bodyAt(0, 'content', 0, 'marks', 1));
    expectProblem(checkRaw([{ type: 'uiProse', content: [{ type: 'codeBlock', content: [{ type: 'text', text: 'x', marks: [{ type: 'italic' }] }] }] }]), "Text has formatting that's repeated or not allowed inside <CodeBlock>");
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 'x', marks: [{ type: 'underline' }] }] }]), "Text has formatting that's repeated or not allowed inside <Text>");
    expectProblem(validateTree({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [ui.actions([]), ui.footer(ui.strike('x'))] }, {}), "Text has formatting that's repeated or not allowed inside <Footer>", ['content', 1, 'content', 0, 'marks', 0]);
  });

  it('hand-built empty text', () => {
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: '' }] }]), "Text can't be empty", bodyAt(0, 'content', 0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 'x', attrs: {} }] }]), "Text can't have attrs or content", bodyAt(0, 'content', 0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 'x', content: [] }] }]), "Text can't have attrs or content", bodyAt(0, 'content', 0));
  });
});

describe('tree validation messages: audience', () => {
  const members = ['mem_1'];

  it('shared field lacking a change handler', () => {
    const choices = [{ value: 'a', label: 'A' }];
    expectProblem(check([ui.choiceGroup({ name: 'c', label: 'C', shared: true, choices })]), 'A shared <ChoiceGroup> outside a <Form> needs onChange', bodyAt(0));
    expectProblem(check([ui.select({ name: 's', label: 'S', shared: true, options: choices })]), 'A shared <Select> outside a <Form> needs onChange', bodyAt(0));
    expectProblem(check([ui.toggle({ name: 't', label: 'T', shared: true })]), 'A shared <Toggle> outside a <Form> needs onChange', bodyAt(0));
    expectValid(check([ui.choiceGroup({ name: 'c', label: 'C', shared: true, onChange: 'vote', choices })]));
    expectValid(check([ui.form([ui.choiceGroup({ name: 'c', label: 'C', shared: true, choices }), ui.submit({ label: 'Go', action: 'go' })])]));
  });

  it('nested audience', () => {
    expectProblem(check([ui.stack({ audience: members }, [ui.text('x', { audience: members })])]), '<Text> sits inside another audience; audiences can\'t nest', bodyAt(0, 'content', 0));
    expectProblem(check([ui.section({ audience: members }, [ui.columns([ui.column([ui.text('x', { audience: members })]), ui.column([text])])])]), '<Text> sits inside another audience; audiences can\'t nest');
  });

  it('audience in a form', () => {
    expectProblem(check([ui.form([ui.textInput({ name: 'n', label: 'N', audience: members }), ui.submit({ label: 'Go', action: 'go' })])]), '<TextInput> sits inside a <Form>; put the audience on the <Form>', bodyAt(0, 'content', 0));
    expectProblem(check([ui.form([ui.submit({ label: 'Go', action: 'go', audience: members })])]), '<Button> sits inside a <Form>; put the audience on the <Form>');
    expectValid(check([ui.form({ audience: members }, [ui.textInput({ name: 'n', label: 'N' }), ui.submit({ label: 'Go', action: 'go' })])]));
  });

  it('audience on an unsupported part', () => {
    expectProblem(check([ui.row([text, ui.button({ label: 'Go', action: 'go', audience: members })])]), "<Button> can't carry an audience here; move it onto the enclosing <Row>", bodyAt(0, 'content', 1));
    // A section's own Actions is a flow element; its buttons are not.
    expectProblem(check([ui.section([ui.actions([ui.button({ label: 'Go', action: 'go', audience: members })])])]), "<Button> can't carry an audience here; move it onto the enclosing <Actions>", bodyAt(0, 'content', 0, 'content', 0));
    expectProblem(check([ui.row([ui.text('x', { audience: members }), ui.button({ label: 'Go', action: 'go' })])]), "<Text> can't carry an audience here; move it onto the enclosing <Row>");
    expectProblem(checkRaw([{ type: 'uiMetrics', content: [{ type: 'uiMetric', attrs: { label: 'M', value: 1, audience: { members } } }] }]), "<Metric> can't carry an audience; set it on a flow element instead", bodyAt(0, 'content', 0));
    const header = { type: 'uiHeader', attrs: { audience: { members } }, content: [{ type: 'uiHeaderTitle', content: [{ type: 'text', text: 'T' }] }] };
    expectProblem(checkRaw([header]), "<Header> can't carry an audience; set it on a flow element instead", bodyAt(0));
    expectProblem(checkRaw([{ type: 'uiProse', content: [{ type: 'paragraph', attrs: { audience: { members } } }] }]), "<Paragraph> can't carry an audience; set it on a flow element instead");
    // Buttons and menus of the root Actions may carry one; the root Actions itself may not.
    expectValid(check([], [ui.button({ label: 'Go', action: 'go', audience: members }), ui.menu({ label: 'M', audience: members }, [ui.menuItem({ label: 'x', action: 'x' })])]));
    const rootActions = validateTree({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [{ type: 'uiActions', attrs: { audience: { members } } }] }, {});
    expectProblem(rootActions, "<Actions> can't carry an audience; set it on a flow element instead", ['content', 0]);
  });
});
