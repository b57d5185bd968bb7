/**
 * Problems the spec has no row for, with the messages recorded in docs/decisions/catalog.md:
 * the shape of nodes and attributes, button kinds, handles, field values and a few more.
 */
import { describe, it } from 'vitest';
import { bodyAt, check, checkRaw, expectProblem, expectValid, ui, validateTree } from './helpers.ts';

const text = ui.text('t');
const tree = (content: unknown[]) => ({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content });

describe('node shape', () => {
  it('the root is a uiBlock of catalog 1', () => {
    for (const root of [null, 'x', 42, [], {}, { type: 'uiText' }]) expectProblem(validateTree(root), 'Trees start with a <Block>', []);
    expectProblem(validateTree({ type: 'uiBlock', attrs: { catalog: 2, summary: 'S' }, content: [{ type: 'uiActions' }] }), '<Block>\'s "catalog" must be 1', ['attrs', 'catalog']);
    expectProblem(validateTree({ type: 'uiBlock', attrs: { summary: 'S' }, content: [{ type: 'uiActions' }] }), '<Block> needs "catalog"', []);
  });

  it('children are objects with a known type', () => {
    expectProblem(checkRaw(['text']), 'Nodes are objects with a type', bodyAt(0));
    expectProblem(checkRaw([null]), 'Nodes are objects with a type', bodyAt(0));
    expectProblem(checkRaw([{ text: 'x' }]), 'Nodes are objects with a type', bodyAt(0));
    expectProblem(checkRaw([{ type: 'uiMarquee' }]), 'Unknown node type "uiMarquee"', bodyAt(0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'mention' }] }]), 'Unknown node type "mention"', bodyAt(0, 'content', 0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 'x' }], marks: [] }]), '<Text> has an unknown field "marks"', bodyAt(0, 'marks'));
    expectProblem(checkRaw([{ type: 'uiText', attrs: [], content: [] }]), '<Text> attrs must be an object', bodyAt(0, 'attrs'));
    expectProblem(checkRaw([{ type: 'uiText', content: { type: 'text', text: 'x' } }]), '<Text> content must be a list', bodyAt(0, 'content'));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 'x', id: 1 }] }]), 'Text has an unknown field "id"', bodyAt(0, 'content', 0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 7 }] }]), 'Text nodes hold a string in "text"', bodyAt(0, 'content', 0));
    expectProblem(checkRaw([{ type: 'uiText', content: [{ type: 'text', text: 'x', marks: 'bold' }] }]), 'Text marks must be a list', bodyAt(0, 'content', 0, 'marks'));
    expectProblem(checkRaw([{ type: 'uiText' }]), '<Text> needs text', bodyAt(0));
    expectProblem(checkRaw([{ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' } }]), "<Block> can't hold <Block> here", bodyAt(0));
  });

  it('attributes: known, well-typed, required ones present', () => {
    expectProblem(checkRaw([{ type: 'uiText', attrs: { color: 'red' }, content: [{ type: 'text', text: 'x' }] }]), '<Text> doesn\'t take the attribute "color"', bodyAt(0, 'attrs', 'color'));
    expectProblem(checkRaw([{ type: 'uiStep', attrs: {} }]), '<Step> needs "label"', bodyAt(0));
    expectProblem(checkRaw([{ type: 'uiStep', attrs: { label: 3 } }]), '<Step>\'s "label" must be text', bodyAt(0, 'attrs', 'label'));
    expectProblem(checkRaw([{ type: 'uiStep', attrs: { label: 'S', state: 'late' } }]), '<Step>\'s "state" must be one of upcoming, current, done, failed, skipped');
    expectProblem(checkRaw([{ type: 'uiSection', attrs: { collapsed: 'yes', title: 'T' } }]), '<Section>\'s "collapsed" must be true or false');
    expectProblem(checkRaw([{ type: 'uiFile', attrs: { name: 'f', url: 'https://f.example.com', size: -1 } }]), '<File>\'s "size" must be a whole number of at least 0');
    expectProblem(checkRaw([{ type: 'uiProgress', attrs: { value: 0, max: 0 } }]), '<Progress>\'s "max" must be a finite number above 0');
    expectProblem(check([], [ui.button({ label: 'Go', action: 'go', confirm: { title: 'T', extra: 1 } as never })]), '<Button> doesn\'t take the attribute "confirm.extra"');
    expectProblem(check([], [ui.button({ label: 'Go', action: 'go', confirm: {} as never })]), '<Button> needs "confirm.title"', ['content', 0, 'content', 0, 'attrs', 'confirm']);
    expectProblem(checkRaw([{ type: 'uiSection', attrs: { handle: 'no spaces' } }]), '<Section>\'s "handle" must be 1 to 48 characters from A-Z, a-z, 0-9, _ and -');
    // Attributes left undefined (as builders' callers may) count as absent, like JSON drops them.
    expectValid(validateTree(tree([{ type: 'uiText', attrs: { variant: undefined }, content: [{ type: 'text', text: 'x' }] }, { type: 'uiActions' }]), {}));
  });

  it('icons come from the catalog set', () => {
    expectProblem(check([ui.item({ title: 'I' }, [ui.icon({ name: 'unicorn' })])]), 'There is no icon named "unicorn"', bodyAt(0, 'content', 1, 'attrs', 'name'));
  });
});

describe('buttons and menu items', () => {
  const button = (attrs: Record<string, unknown>) => checkRaw([], { a0: { name: 'go' } }, [{ type: 'uiButton', attrs: { label: 'B', ...attrs } }]);

  it('each button type takes its own attributes', () => {
    expectProblem(button({ buttonType: 'link', href: 'https://a.example.com', action: { ref: 'a0' } }), 'A link button doesn\'t take "action"', ['content', 0, 'content', 0, 'attrs', 'action']);
    expectProblem(button({ buttonType: 'copy', copyText: 'x', confirm: { title: 'T' } }), 'A copy button doesn\'t take "confirm"');
    expectProblem(button({ buttonType: 'action' }), '<Button> needs "action"', ['content', 0, 'content', 0]);
    expectProblem(button({ buttonType: 'link', href: 'https://a.example.com', intent: 'destructive' }), 'Only buttons and menu items that run an action can be destructive');
    expectProblem(button({ buttonType: 'action', action: 'go' }), '<Button>\'s "action" must be an action reference like { "ref": "a0" }');
    expectProblem(button({ buttonType: 'action', action: { ref: 'a0', name: 'go' } }), '<Button>\'s "action" must be an action reference like { "ref": "a0" }');
    expectProblem(button({ action: { ref: 'a0' } }), '<Button> needs "buttonType"');
  });

  it('a menu item runs an action or opens a link', () => {
    const item = (attrs: Record<string, unknown>) => check([], [ui.menu({ label: 'M' }, [ui.menuItem({ label: 'I', ...attrs })])]);
    expectProblem(item({}), '<MenuItem> takes either "action" or "href"');
    expectProblem(item({ action: 'go', href: 'https://a.example.com' }), '<MenuItem> takes either "action" or "href"');
    expectProblem(item({ href: 'https://a.example.com', confirm: { title: 'T' } }), 'Only buttons and menu items that run an action take a confirm');
  });
});

describe('sections, fields and components', () => {
  it('section handles are unique', () => {
    expectProblem(check([ui.section({ handle: 'log' }, [text]), ui.section({ handle: 'log' }, [text])]), 'Two sections share the handle log; handles must be unique', bodyAt(1, 'attrs', 'handle'));
  });

  it('selects take options or a search action; values are offered', () => {
    const options = [{ value: 'a', label: 'A' }, { value: 'a', label: 'B' }];
    expectProblem(check([ui.select({ name: 's', label: 'S', onChange: 'p' })]), '<Select> takes either options or a search action', bodyAt(0));
    expectProblem(check([ui.select({ name: 's', label: 'S', onChange: 'p', options: [{ value: 'a', label: 'A' }], search: 'find' })]), '<Select> takes either options or a search action');
    expectProblem(check([ui.select({ name: 's', label: 'S', onChange: 'p', options })]), 'Select option values must be unique', bodyAt(0, 'attrs', 'options', 1, 'value'));
    expectProblem(check([ui.select({ name: 's', label: 'S', onChange: 'p', options: [options[0]!], value: 'z' })]), '"z" is not one of the options');
  });

  it('choice group values', () => {
    const choices = [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }];
    const group = (extra: Record<string, unknown>) => check([ui.choiceGroup({ name: 'c', label: 'C', onChange: 'p', choices, ...extra })]);
    expectProblem(group({ value: ['a'] }), 'A choice group takes a list of values when multiple, one value otherwise');
    expectProblem(group({ multiple: true, value: 'a' }), 'A choice group takes a list of values when multiple, one value otherwise');
    expectProblem(group({ multiple: true, value: ['a', 'z'] }), '"z" is not one of the choices', bodyAt(0, 'attrs', 'value', 1));
    expectProblem(group({ multiple: true, value: ['a', 'a'] }), 'Picked values must be unique');
    expectProblem(check([ui.choiceGroup({ name: 'c', label: 'C', onChange: 'p', choices: [choices[0]!, { value: 'a', label: 'Z' }] })]), 'Choice values must be unique');
    expectValid(group({ multiple: true, value: ['a', 'b'] }));
  });

  it('components with their own needs', () => {
    expectProblem(check([ui.callout({ tone: 'info' })]), '<Callout> needs a title or text', bodyAt(0));
    expectProblem(check([ui.table({ columns: [{ label: 'A' }, { label: 'B' }], rows: [{ cells: ['x'] }] })]), 'Each table row needs one cell per column', bodyAt(0, 'attrs', 'rows', 0, 'cells'));
    expectProblem(check([ui.table({ columns: [{ label: 'A', type: 'number' }], rows: [{ cells: ['x'] }] })]), '<Table>\'s "rows.0.cells.0" must be a finite number');
    expectProblem(check([ui.table({ columns: [{ label: 'A', type: 'date' }], rows: [{ cells: ['tomorrow'] }] })]), '<Table>\'s "rows.0.cells.0" must be an ISO 8601 date or time');
    expectProblem(check([ui.chart({ chartType: 'donut', series: [{ name: 'S', points: [{ label: 'a', value: 3 }, { label: 'b', value: -1 }] }] })]), "Donut charts can't hold negative values");
    expectProblem(check([ui.header({ title: 'T' }, [ui.badge({ label: 'a' }), ui.badge({ label: 'b' }), ui.badge({ label: 'c' }), ui.status({ label: 'd' })])]), 'Headers hold at most 3 badges, statuses and icons', bodyAt(0, 'content', 4));
    expectProblem(check([ui.item({ title: 'T' }, [ui.icon({ name: 'star' }), ui.icon({ name: 'star' }), ui.icon({ name: 'star' }), ui.icon({ name: 'star' })])]), 'Items hold at most 3 badges, statuses and icons');
  });
});
