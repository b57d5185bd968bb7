/**
 * fast-check arbitraries that write block trees with the `ui` builders, staying inside every rule
 * an author is told about (docs/catalog.md). Each arbitrary yields a function of a context that
 * hands out unique field names and section handles and counts images, so the drafts it builds
 * are valid as a whole block.
 */
import fc from 'fast-check';
import { ICONS, ui, type Draft } from '../../../sandbox-lib/src/catalog/index.ts';
import { labelKey } from '../../../sandbox-lib/src/catalog/kit/measure.ts';

export interface Ctx {
  fields: number;
  handles: string[];
  images: number;
}
export type Gen = (ctx: Ctx) => Draft;

const first = fc.constantFrom('A', 'b', 'Z', 'é', '👍🏽', '日', '9');
const unit = fc.constantFrom('a', 'b', ' ', 'é', '👍🏽', '-', 'Q');
/** Visible text of 1 to `max` characters as people see them. */
export const label = (max: number) => fc.tuple(first, fc.string({ unit, maxLength: max - 1 })).map(([a, b]) => a + b);
/** A name (a person's, a file's): a label with no space at its end (names follow @platform/sdk's `nameProblem`). */
const nameOf = (max: number) => label(max).map((s) => s.trimEnd());
const labels = (max: number, min: number, most: number) => fc.uniqueArray(label(max), { selector: labelKey, minLength: min, maxLength: most });
const url = fc.stringMatching(/^[a-z0-9]{1,12}$/).map((p) => `https://example.com/${p}`);
const icon = fc.constantFrom(...ICONS);
const tone = fc.constantFrom('neutral', 'info', 'success', 'warning', 'danger') as fc.Arbitrary<'neutral' | 'info' | 'success' | 'warning' | 'danger'>;
const actionName = fc.constantFrom('approve', 'reject', 'x.y-z_1');
const args = fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const num = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
const fraction = fc.double({ noNaN: true, min: -1, max: 1 });

/** Runs of text with the marks a container allows (never strike and link together). */
export function runs(marks: Array<'bold' | 'italic' | 'strike' | 'code' | 'link'>, maxRuns = 3, max = 20) {
  const run = fc.record({ text: label(max), mark: fc.constantFrom(undefined, ...marks), href: url })
    .map(({ text, mark, href }) => (mark === undefined ? text : mark === 'link' ? ui.link(text, href) : ui.span(text, { [mark]: true })));
  return fc.array(run, { minLength: 1, maxLength: maxRuns });
}

const constant = (draft: fc.Arbitrary<Draft>): fc.Arbitrary<Gen> => draft.map((d) => () => d);

const text = constant(fc.tuple(runs(['bold', 'italic', 'strike', 'code', 'link']), opt(fc.constantFrom('body', 'muted', 'small') as fc.Arbitrary<'body'>)).map(([r, variant]) => ui.text(r, { variant })));
const item = constant(fc.record({ title: runs(['italic', 'code'], 2), href: opt(url), description: opt(label(280)), trailing: opt(label(24)), icon: opt(icon), badges: labels(32, 0, 3) })
  .map(({ badges, ...o }) => ui.item(o, badges.map((l) => ui.badge({ label: l })))));
const step = constant(fc.record({ label: label(80), description: opt(label(280)), state: opt(fc.constantFrom('upcoming', 'current', 'done', 'failed', 'skipped') as fc.Arbitrary<'done'>) }).map(ui.step));
const quote = constant(fc.tuple(runs(['bold', 'link']), opt(label(60))).map(([r, attribution]) => ui.quote(r, { attribution })));
const file = constant(fc.record({ name: nameOf(120), url, size: opt(fc.nat()) }).map(ui.file));
const progress = constant(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), opt(fc.integer({ min: 1, max: 100 })), opt(label(12)), opt(label(60))).map(([f, max, unitName, l]) =>
  ui.progress({ value: max === undefined ? f : f * max, max, unit: max === undefined ? undefined : unitName, label: l })));
const avatars = constant(fc.record({ people: fc.array(fc.record({ name: nameOf(64), avatarSrc: opt(url) }), { minLength: 1, maxLength: 50 }), label: opt(label(60)) }).map(ui.avatarStack));
const callout = constant(fc.tuple(tone, opt(label(80)), runs(['bold', 'code']), opt(icon)).map(([t, title, r, i]) => ui.callout({ tone: t, title, icon: t === 'neutral' ? i : undefined }, r)));
const metrics = constant(labels(32, 1, 6).chain((ls) => fc.tuple(...ls.map((l) => fc.record({ value: fraction, format: fc.constantFrom('number', 'percent', 'currency') as fc.Arbitrary<'number' | 'percent' | 'currency'>, delta: opt(fc.record({ value: fraction })), trend: opt(fc.array(fraction, { minLength: 2, maxLength: 24 })) })
  .map((m) => ui.metric({ label: l, ...m, currency: m.format === 'currency' ? 'EUR' : undefined }))))).map((ms) => ui.metrics(ms)));
const metaList = constant(fc.array(fc.record({ text: label(60), icon: opt(icon), href: opt(url) }), { minLength: 1, maxLength: 6 }).map((ms) => ui.metaList(ms.map(ui.metaItem))));
const facts = constant(labels(32, 1, 5).chain((ls) => fc.tuple(...ls.map((l) => label(120).map((v) => ui.fact({ label: l, value: v }))))).map((fs) => ui.facts(fs)));
const cells = {
  text: label(40), number: num, status: fc.record({ label: label(32), tone: opt(tone) }), badge: fc.record({ label: label(32) }),
  link: fc.record({ label: label(60), href: url }), person: fc.record({ name: nameOf(64) }), date: fc.constantFrom('2025-01-31', '2025-01-31T10:00:00Z'),
} as const;
type ColumnType = keyof typeof cells;
const table = constant(labels(24, 1, 4).chain((ls) => fc.tuple(fc.constant(ls), fc.array(fc.constantFrom(...(Object.keys(cells) as ColumnType[])), { minLength: ls.length, maxLength: ls.length }))).chain(([ls, types]) =>
  fc.record({
    title: opt(label(80)),
    rows: fc.array(fc.record({ cells: fc.tuple(...types.map((t) => fc.option(cells[t] as fc.Arbitrary<unknown>, { nil: null }))), menu: opt(labels(32, 1, 3).chain((ms) => fc.tuple(...ms.map((m) => fc.record({ label: fc.constant(m), action: actionName, args }))))) }), { maxLength: 4 }),
  }).map(({ title, rows }) => ui.table({ title, columns: ls.map((l, i) => ({ label: l, type: types[i] })), rows: rows as never }))));
const series = (points: number) => fc.record({ name: fc.constant(''), points: labels(24, 1, points).chain((ps) => fc.tuple(...ps.map((p) => fc.double({ min: 0, max: 1000, noNaN: true }).map((v) => ({ label: p, value: v }))))) });
const chart = constant(fc.oneof(
  labels(24, 1, 3).chain((names) => fc.tuple(...names.map((n) => series(24).map((s) => ({ ...s, name: n }))))).chain((s) => fc.constantFrom('bar', 'line', 'area').map((chartType) => ui.chart({ chartType: chartType as 'bar', series: s }))),
  fc.tuple(label(24), series(4)).map(([n, s]) => ui.chart({ chartType: 'donut', series: [{ name: n, points: [...s.points, { label: `${s.points.length} total`, value: 1 }] }] })),
));
const prose = constant(fc.array(fc.oneof(
  runs(['bold', 'italic', 'strike', 'code', 'link']).map(ui.paragraph),
  fc.tuple(fc.constantFrom(1, 2, 3) as fc.Arbitrary<1>, runs(['italic'])).map(([l, r]) => ui.heading(l, r)),
  fc.array(fc.tuple(runs(['bold']), fc.array(label(20), { maxLength: 2 })), { minLength: 1, maxLength: 2 })
    .map((items) => ui.bulletList(items.map(([r, sub]) => (sub.length ? ui.listItem([ui.paragraph(r), ui.orderedList(sub)]) : r)))),
  runs(['bold']).map((r) => ui.blockquote([ui.paragraph(r)])),
  label(200).map((c) => ui.codeBlock(c, 'ts')),
), { minLength: 1, maxLength: 3 }).map((blocks) => ui.prose(blocks)));
const image: fc.Arbitrary<Gen> = fc.record({ src: url, alt: label(200) }).map((o) => (ctx) => (ctx.images++ < 10 ? ui.image(o) : ui.text('No more images')));

const name = (ctx: Ctx) => `f${ctx.fields++}`;
const choices = (n: number) => labels(60, 1, n).map((ls) => ls.map((l, i) => ({ value: `v${i}`, label: l })));
const choiceGroup = (inForm: boolean): fc.Arbitrary<Gen> => fc.record({ label: label(60), choices: choices(20), shared: fc.boolean(), multiple: fc.boolean(), action: actionName })
  .map((o) => (ctx) => ui.choiceGroup({ name: name(ctx), label: o.label, choices: o.choices, shared: o.shared, multiple: o.multiple, onChange: inForm ? undefined : o.action }));
const select = (inForm: boolean): fc.Arbitrary<Gen> => fc.record({ label: label(60), options: choices(100), search: fc.boolean(), action: actionName, selected: label(60) })
  .map((o) => (ctx) => ui.select(o.search
    ? { name: name(ctx), label: o.label, search: o.action, value: 'x', selectedLabel: o.selected, onChange: inForm ? undefined : o.action }
    : { name: name(ctx), label: o.label, options: o.options, value: o.options[0]!.value, onChange: inForm ? undefined : o.action }));
const toggle = (inForm: boolean): fc.Arbitrary<Gen> => fc.record({ label: label(60), value: fc.boolean(), action: actionName }).map((o) => (ctx) => ui.toggle({ name: name(ctx), label: o.label, value: o.value, onChange: inForm ? undefined : o.action }));
const textInput: fc.Arbitrary<Gen> = fc.record({ label: label(60), placeholder: opt(label(60)), value: opt(label(40)), multiline: fc.boolean() })
  .map((o) => (ctx) => ui.textInput({ name: name(ctx), maxLength: 100, ...o }));

const row = constant(fc.tuple(fc.array(fc.oneof(text.map((g) => g({} as Ctx)), avatars.map((g) => g({} as Ctx))), { minLength: 1, maxLength: 2 }), labels(32, 0, 3), actionName, args).map(([lead, ls, a, x]) =>
  ui.row([...lead, ...ls.map((l) => ui.button({ label: l, action: a, args: x }))])));

/** Components that sit anywhere flow goes, narrow enough for a column. */
const narrow = fc.oneof(text, item, step, quote, file, progress, avatars, callout, metaList, facts, image, row, choiceGroup(false), select(false), toggle(false));
/** Any leaf flow element. */
const leaf = fc.oneof(narrow, metrics, table, chart, prose);
const all = (gens: Gen[]) => (ctx: Ctx) => gens.map((g) => g(ctx));

const section: fc.Arbitrary<Gen> = fc.record({ title: opt(label(60)), kids: fc.array(narrow, { maxLength: 3 }), withHandle: fc.boolean() })
  .map(({ title, kids, withHandle }) => (ctx) => {
    const handle = withHandle ? `s${ctx.handles.length}` : undefined;
    if (handle) ctx.handles.push(handle);
    return ui.section({ title: title ?? 'Section', handle, collapsed: title === undefined }, all(kids)(ctx));
  });
const columns: fc.Arbitrary<Gen> = fc.array(fc.array(narrow, { maxLength: 2 }), { minLength: 2, maxLength: 3 }).map((cols) => (ctx) => ui.columns(cols.map((c) => ui.column(all(c)(ctx)))));
const tabs: fc.Arbitrary<Gen> = labels(32, 2, 3).chain((ls) => fc.tuple(...ls.map(() => fc.array(fc.oneof(narrow, section), { maxLength: 2 })))
  .map((bodies) => (ctx: Ctx) => ui.tabs(ls.map((l, i) => ui.tab({ label: l }, all(bodies[i]!)(ctx))))));
const stack: fc.Arbitrary<Gen> = fc.record({ kids: fc.array(leaf, { maxLength: 3 }), audience: opt(fc.uniqueArray(fc.stringMatching(/^mem_[a-z0-9]{1,6}$/), { minLength: 1, maxLength: 50 })) })
  .map(({ kids, audience }) => (ctx) => ui.stack({ audience }, all(kids)(ctx)));
const formField = fc.oneof(textInput, choiceGroup(true), select(true), toggle(true));
const form: fc.Arbitrary<Gen> = fc.record({ kids: fc.array(fc.oneof(formField, text), { maxLength: 3 }), inSection: fc.array(formField, { maxLength: 2 }), submit: label(32), action: actionName, args })
  .map((o) => (ctx) => ui.form([...all(o.kids)(ctx), ui.section({ title: 'More' }, all(o.inSection)(ctx)), ui.submit({ label: o.submit, action: o.action, args: o.args })]));

/** A whole block: header, 0 to 12 flow elements, the actions bar, a footer. */
export const blockArb: fc.Arbitrary<(ctx: Ctx) => Draft> = fc.record({
  summary: label(280),
  header: opt(fc.record({ title: runs(['italic', 'code', 'link']), trailing: opt(label(24)), statuses: labels(32, 0, 2), icon: opt(icon) })),
  body: fc.array(fc.oneof(leaf, section, columns, tabs, stack, form), { maxLength: 12, size: 'max' }),
  buttons: labels(32, 0, 6),
  actions: fc.array(fc.record({ name: actionName, args, kind: fc.constantFrom('action', 'destructive', 'link', 'copy', 'toggle'), audience: fc.boolean() }), { minLength: 6, maxLength: 6 }),
  footer: opt(runs(['bold', 'link'], 2, 10)),
}).map((o) => (ctx) => {
  const body = all(o.body)(ctx);
  const [menuLabel, ...buttonLabels] = o.buttons;
  const buttons = buttonLabels.map((l, i) => {
    const a = o.actions[i]!;
    const audience = a.audience ? ['mem_1'] : undefined;
    if (a.kind === 'link') return ui.linkButton({ label: l, href: 'https://example.com', audience });
    if (a.kind === 'copy') return ui.copyButton({ label: l, copyText: l, audience });
    if (a.kind === 'toggle' && ctx.handles.length > 0) return ui.toggleButton({ label: l, target: ctx.handles[0]!, audience });
    if (a.kind === 'destructive') return ui.button({ label: l, action: a.name, args: a.args, intent: 'destructive', confirm: { title: 'Sure?' }, audience });
    return ui.button({ label: l, action: a.name, args: a.args, audience });
  });
  const menu = menuLabel === undefined ? [] : [ui.menu({ label: menuLabel }, [ui.menuItem({ label: 'Open', href: 'https://example.com' })])];
  return ui.block({ summary: o.summary }, [
    ...(o.header ? [ui.header({ title: o.header.title, trailing: o.header.trailing }, [...o.header.statuses.map((l) => ui.status({ label: l })), ...(o.header.icon ? [ui.icon({ name: o.header.icon })] : [])])] : []),
    ...body,
    ui.actions([...buttons, ...menu]),
    ...(o.footer ? [ui.footer(o.footer)] : []),
  ]);
});
