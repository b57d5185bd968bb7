/**
 * The remaining rows of "Block trees" (tables, charts, trends, avatars, selects, inputs, audience,
 * URLs, field names), the "Block data" rows that apply to trees (image size, form input per
 * submission) and the "Actions and timing" rows about the action table.
 */
import { describe, it } from 'vitest';
import { ascii, bodyAt, check, checkRaw, expectProblem, expectValid, graphemes, times, ui, validateTree } from './helpers.ts';

const text = ui.text('t');
const form = (...fields: ReturnType<typeof ui.text>[]) => ui.form([...fields, ui.submit({ label: 'Go', action: 'go' })]);

describe('block tree limits: data components', () => {
  it('table: 12 columns, 200 rows, 280 characters per text cell, 12 menu items per row', () => {
    const columns = (n: number) => times(n, (i) => ({ label: `C${i}` }));
    expectValid(check([ui.table({ columns: columns(12), rows: [] })]));
    expectProblem(check([ui.table({ columns: columns(13), rows: [] })]), 'Tables hold at most 12 columns', bodyAt(0, 'attrs', 'columns', 12));
    const rows = (n: number) => times(n, (i) => ({ cells: [String(i % 10)] }));
    expectValid(check([ui.table({ columns: columns(1), rows: rows(200) })]));
    expectProblem(check([ui.table({ columns: columns(1), rows: rows(201) })]), 'Tables hold at most 200 rows', bodyAt(0, 'attrs', 'rows', 200));
    expectValid(check([ui.table({ columns: columns(1), rows: [{ cells: [graphemes(280)] }] })]));
    expectProblem(check([ui.table({ columns: columns(1), rows: [{ cells: [graphemes(281)] }] })]), 'Keep this to 280 characters or fewer', bodyAt(0, 'attrs', 'rows', 0, 'cells', 0));
    const menu = (n: number) => [{ cells: ['x'], menu: times(n, (i) => ({ label: `I${i}`, action: 'x' })) }];
    expectValid(check([ui.table({ columns: columns(1), rows: menu(12) })]));
    expectProblem(check([ui.table({ columns: columns(1), rows: menu(13) })]), 'Table rows hold at most 12 menu items', bodyAt(0, 'attrs', 'rows', 0, 'menu', 12));
  });

  it('chart: 3 series of up to 24 points; donut: one series of up to 5 points with a total above zero', () => {
    const series = (n: number, points: number) => times(n, (i) => ({ name: `S${i}`, points: times(points, (j) => ({ label: `P${j}`, value: j + 1 })) }));
    expectValid(check([ui.chart({ chartType: 'line', series: series(3, 24) })]));
    expectProblem(check([ui.chart({ chartType: 'line', series: series(4, 1) })]), 'Charts hold at most 3 series', bodyAt(0, 'attrs', 'series', 3));
    expectProblem(check([ui.chart({ chartType: 'bar', series: series(1, 25) })]), 'Chart series hold at most 24 points', bodyAt(0, 'attrs', 'series', 0, 'points', 24));
    expectValid(check([ui.chart({ chartType: 'donut', series: series(1, 5) })]));
    expectProblem(check([ui.chart({ chartType: 'donut', series: series(1, 6) })]), 'Donut charts hold one series of up to 5 points', bodyAt(0, 'attrs', 'series', 0, 'points', 5));
    expectProblem(check([ui.chart({ chartType: 'donut', series: series(2, 2) })]), 'Donut charts hold one series of up to 5 points', bodyAt(0, 'attrs', 'series', 1));
    expectProblem(check([ui.chart({ chartType: 'donut', series: [{ name: 'S', points: [{ label: 'a', value: 0 }] }] })]), 'Donut charts need a positive total');
  });

  it('metric trend: 2 to 24 points', () => {
    const metric = (n: number) => ui.metrics([ui.metric({ label: 'M', value: 1, trend: times(n, (i) => i) })]);
    expectValid(check([metric(2), metric(24)]));
    expectProblem(check([metric(25)]), 'Metric trends hold 2 to 24 points', bodyAt(0, 'content', 0, 'attrs', 'trend', 24));
    expectProblem(check([metric(1)]), 'Metric trends hold 2 to 24 points', bodyAt(0, 'content', 0, 'attrs', 'trend'));
  });

  it('metric values are finite numbers; percent values are fractions', () => {
    expectProblem(check([ui.metrics([ui.metric({ label: 'M', value: Number.NaN })])]), '<Metric>\'s "value" must be a finite number', bodyAt(0, 'content', 0, 'attrs', 'value'));
    expectProblem(check([ui.metrics([ui.metric({ label: 'M', value: 1, delta: { value: Number.POSITIVE_INFINITY } })])]), '<Metric>\'s "delta.value" must be a finite number');
    expectProblem(checkRaw([{ type: 'uiMetrics', content: [{ type: 'uiMetric', attrs: { label: 'M', value: '8%' } }] }]), '<Metric>\'s "value" must be a finite number');
    expectValid(check([ui.metrics([ui.metric({ label: 'M', value: 100, format: 'percent', delta: { value: -100 } })])]));
    expectProblem(check([ui.metrics([ui.metric({ label: 'M', value: 100.5, format: 'percent' })])]), 'Percent values are fractions: 0.08 means 8%', bodyAt(0, 'content', 0, 'attrs', 'value'));
    expectProblem(check([ui.metrics([ui.metric({ label: 'M', value: 0.5, format: 'percent', delta: { value: 250 } })])]), 'Percent values are fractions: 0.08 means 8%', bodyAt(0, 'content', 0, 'attrs', 'delta', 'value'));
    expectProblem(check([ui.table({ columns: [{ label: 'Rate', type: 'number', format: 'percent' }], rows: [{ cells: [812] }] })]), 'Percent values are fractions: 0.08 means 8%');
  });

  it('avatar stack: 50 people', () => {
    const stack = (n: number) => ui.avatarStack({ people: times(n, (i) => ({ name: `P${i}` })) });
    expectValid(check([stack(50)]));
    expectProblem(check([stack(51)]), 'Avatar stacks hold at most 50 people', bodyAt(0, 'attrs', 'people', 50));
  });

  it('static select options: 100', () => {
    const select = (n: number) => ui.select({ name: 's', label: 'S', onChange: 'pick', options: times(n, (i) => ({ value: `v${i}`, label: `O${i}` })) });
    expectValid(check([select(100)]));
    expectProblem(check([select(101)]), 'Selects hold at most 100 options', bodyAt(0, 'attrs', 'options', 100));
  });

  it('TextInput maxLength: 2,000, and a prefilled value fits it', () => {
    expectValid(check([form(ui.textInput({ name: 'n', label: 'N', maxLength: 2000 }))]));
    expectProblem(check([form(ui.textInput({ name: 'n', label: 'N', maxLength: 2001 }))]), '<TextInput>\'s "maxLength" must be a whole number from 1 to 2,000', bodyAt(0, 'content', 0, 'attrs', 'maxLength'));
    expectValid(check([form(ui.textInput({ name: 'n', label: 'N', maxLength: 5, value: graphemes(5) }))]));
    expectProblem(check([form(ui.textInput({ name: 'n', label: 'N', maxLength: 5, value: graphemes(6) }))]), 'Keep this to 5 characters or fewer', bodyAt(0, 'content', 0, 'attrs', 'value'));
  });

  it('audience members: 50', () => {
    const members = (n: number) => times(n, (i) => `mem_${i}`);
    expectValid(check([ui.stack({ audience: members(50) }, [text])]));
    expectProblem(check([ui.stack({ audience: members(51) }, [text])]), 'Audiences hold at most 50 members', bodyAt(0, 'attrs', 'audience', 'members', 50));
    expectProblem(check([ui.stack({ audience: [] }, [text])]), 'Audiences need at least one member');
    expectProblem(check([ui.stack({ audience: ['a', 'a'] }, [text])]), 'Audience members must be unique');
  });

  it('URLs in a tree: https:// only, at most 2,048 characters', () => {
    const at = (n: number) => `https://cdn.example.com/${'a'.repeat(n - 24)}`;
    expectValid(check([ui.image({ src: at(2048), alt: 'A' })]));
    expectProblem(check([ui.image({ src: at(2049), alt: 'A' })]), 'Keep this to 2,048 characters or fewer', bodyAt(0, 'attrs', 'src'));
    expectProblem(check([ui.image({ src: 'http://cdn.example.com/a.png', alt: 'A' })]), '<Image>\'s "src" must be an https:// URL', bodyAt(0, 'attrs', 'src'));
    expectProblem(check([ui.text(ui.link('x', 'javascript:alert(1)'))]), 'Text\'s "marks.0.attrs.href" must be an https:// URL', bodyAt(0, 'content', 0, 'marks', 0, 'attrs', 'href'));
    expectProblem(check([ui.text(ui.link('x', `https://a.example.com/${'b'.repeat(2030)}`))]), 'Keep this to 2,048 characters or fewer');
    expectProblem(check([ui.avatarStack({ people: [{ name: 'A', avatarSrc: 'data:image/png;base64,AAAA' }] })]), '<AvatarStack>\'s "people.0.avatarSrc" must be an https:// URL');
    expectProblem(check([], [ui.linkButton({ label: 'Open', href: 'https://' })]), '<Button>\'s "href" must be an https:// URL');
  });

  it('input and field names: unique across the block, across forms too', () => {
    const a = ui.form([ui.textInput({ name: 'title', label: 'T' }), ui.submit({ label: 'Go', action: 'go' })]);
    const b = ui.form([ui.toggle({ name: 'title', label: 'T' }), ui.submit({ label: 'Go', action: 'go' })]);
    expectProblem(check([a, b]), '"title" names two fields; field names must be unique across the block', bodyAt(1, 'content', 0, 'attrs', 'name'));
    expectProblem(check([a, ui.toggle({ name: 'title', label: 'T', onChange: 'x' })]), '"title" names two fields; field names must be unique across the block');
  });
});

describe('block data limits that apply to trees', () => {
  it('copied images: at most 8,192 pixels per side', () => {
    expectValid(check([ui.image({ src: 'https://i.example.com/a.png', alt: 'A', width: 8192, height: 8192 })]));
    expectProblem(check([ui.image({ src: 'https://i.example.com/a.png', alt: 'A', width: 8193 })]), '<Image>\'s "width" must be a whole number from 1 to 8,192');
  });

  it("form input per submission: a form's prefilled values fit 16 KB", () => {
    // {"a":"…","b":"…",…}: eight fields of 2,000 characters of 1 byte, then one that crosses 16,384 bytes.
    const field = (name: string, n: number) => ui.textInput({ name, label: 'L', value: ascii(n) });
    const fields = times(8, (i) => field(`f${i}`, 2000));
    const used = 2 + 8 * (2000 + 2 + 4 + 1) + 7; // braces, values with quotes, "fN": , commas
    const room = 16_384 - used - 1 - 4 - 2; // comma, "g":, quotes
    expectValid(check([ui.form([...fields, field('g', room), ui.submit({ label: 'Go', action: 'go' })])]));
    expectProblem(check([ui.form([...fields, field('g', room + 1), ui.submit({ label: 'Go', action: 'go' })])]), 'Form values serialize to at most 16 KB', bodyAt(0, 'content', 8, 'attrs', 'value'));
  });
});

describe('action table ("Actions and timing")', () => {
  const bar = [{ type: 'uiButton', attrs: { buttonType: 'action', label: 'Go', action: { ref: 'a0' } } }];

  it('serialized args per button: 2 KB', () => {
    const args = (n: number) => ({ note: 'x'.repeat(n - 11) }); // {"note":"…"} is 11 bytes around the text
    expectValid(checkRaw([], { a0: { name: 'go', args: args(2048) } }, bar));
    expectProblem(checkRaw([], { a0: { name: 'go', args: args(2049) } }, bar), 'Action arguments serialize to at most 2 KB', ['actions', 'a0', 'args']);
    expectProblem(checkRaw([], { a0: { name: 'go', args: { when: new Date(0) } } }, bar), 'Action arguments must be plain JSON', ['actions', 'a0', 'args', 'when']);
  });

  it('action name: 1 to 64 characters from a-z, 0-9, _, . and -', () => {
    expectValid(checkRaw([], { a0: { name: `a.b_c-${'d'.repeat(58)}` } }, bar));
    for (const name of ['', 'x'.repeat(65), 'Approve', 'go now', 'é']) {
      expectProblem(checkRaw([], { a0: { name } }, bar), 'Action names use 1 to 64 characters from a-z, 0-9, _, . and -', ['actions', 'a0', 'name']);
    }
  });

  it('actions per block: 64', () => {
    const table = (n: number) => Object.fromEntries(times(n, (i) => [`a${i}`, { name: 'go' }]));
    expectValid(checkRaw([], table(64), bar));
    expectProblem(checkRaw([], table(65), bar), 'Blocks hold at most 64 actions', ['actions', 'a64']);
  });

  it('every reference in the tree is in the table; unused entries are allowed', () => {
    expectProblem(checkRaw([], {}, bar), 'No action has the reference a0', ['content', 0, 'content', 0, 'attrs', 'action', 'ref']);
    expectValid(checkRaw([], { a0: { name: 'go' }, a1: { name: 'unused' } }, bar));
    expectProblem(checkRaw([], { 'a 0': { name: 'go' } }, bar), '"a 0" is not an action reference; use a0, a1, …', ['actions', 'a 0']);
    expectProblem(checkRaw([], { a0: { name: 'go', label: 'x' } }, bar), 'Action table entries hold only name and args, not "label"');
    expectProblem(checkRaw([], [], bar), 'The action table maps references to { name, args }', ['actions']);
    // Without a table, references are checked for shape only (tooling checks a tree alone).
    expectValid(validateTree({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [{ type: 'uiActions', content: bar }] }));
  });
});
