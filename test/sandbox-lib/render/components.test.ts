/**
 * The block renderer, one row per component and state: each tree is built with the catalog's
 * builders, checked valid (so the rows are trees apps can really send), rendered, and the markup
 * asserted. A last test checks the registry covers every type of the catalog.
 */
import { describe, expect, it } from 'vitest';
import { renderTree, ui, validateTree } from '../../../sandbox-lib/src/index.ts';
import { REGISTRY } from '../../../sandbox-lib/src/catalog/spec/registry.ts';
import { RENDERERS, renderBlock, type RenderOptions } from '../../../sandbox-lib/src/render/index.ts';

type Draft = Parameters<typeof ui.block>[1][number];

/** A valid block around `body` (and `actions` in the root Actions), rendered with `options`. */
function draw(body: Draft[], options: RenderOptions = {}, actions: Draft[] = []): string {
  const { tree, actions: table } = renderTree(ui.block({ summary: 'Test card' }, [...body, ui.actions(actions as Parameters<typeof ui.actions>[0])]));
  const checked = validateTree(tree, table);
  expect(checked, JSON.stringify(checked)).toEqual({ valid: true });
  return renderBlock(tree, options);
}

interface Row {
  name: string;
  html: () => string;
  has: RegExp[];
  hasNot?: RegExp[];
}

const rows: Row[] = [
  { name: 'block: an article named by its summary, with id and revision', html: () => draw([], { blockId: 'blk_1', revision: 3 }),
    has: [/<article class="pb-block" aria-label="Test card" data-block-id="blk_1" data-revision="3">/] },
  { name: 'header: title, trailing text and marks', html: () => draw([ui.header({ title: 'Deploy #42', trailing: '2h ago' }, [ui.status({ label: 'Pending', tone: 'warning' })])]),
    has: [/<h3 class="pb-title">Deploy #42<\/h3>/, /pb-trailing">2h ago/, /pb-status pb-tone-warning/] },
  { name: 'header with href: a link around the title', html: () => draw([ui.header({ title: 'Open me', href: 'https://x.example.com/1' })]),
    has: [/<h3 class="pb-title"><a href="https:\/\/x.example.com\/1" rel="noopener noreferrer nofollow" target="_blank">Open me<\/a>/] },
  { name: 'footer', html: () => draw([], {}, []).replace('', '') + renderBlock(renderTree(ui.block({ summary: 'S' }, [ui.actions([]), ui.footer(['Synced'])])).tree),
    has: [/<footer class="pb-footer">Synced<\/footer>/] },
  { name: 'text with marks and a link', html: () => draw([ui.text(['Built ', ui.bold('fast'), ' see ', ui.link('CI', 'https://ci.example.com')], { variant: 'muted' })]),
    has: [/<p class="pb-text pb-muted">Built <strong>fast<\/strong> see <a href="https:\/\/ci.example.com"/] },
  { name: 'section collapsed: a disclosure button, body hidden', html: () => draw([ui.section({ title: 'Log', handle: 'log', collapsed: true }, [ui.text('lines')])]),
    has: [/<button type="button" class="pb-disclosure" data-toggle="pb-section-log" aria-expanded="false" aria-controls="pb-section-log-body">Log<\/button>/, /id="pb-section-log-body" class="pb-section-body" hidden>/] },
  { name: 'toggle button: controls its section, knows it starts collapsed', html: () => draw([ui.section({ handle: 'log', collapsed: true }, [ui.text('lines')])], {}, [ui.toggleButton({ label: 'Show log', target: 'log' })]),
    has: [/data-toggle="pb-section-log" aria-controls="pb-section-log-body" aria-expanded="false"/] },
  { name: 'columns', html: () => draw([ui.columns([ui.column([ui.text('A')]), ui.column({ width: 'fill' }, [ui.text('B')])])]),
    has: [/<div class="pb-columns"><div class="pb-column">/, /pb-column pb-fill/] },
  { name: 'tabs: a tab list, the first selected, other panels hidden', html: () => draw([ui.tabs({ title: 'Details' }, [ui.tab({ label: 'One' }, [ui.text('1')]), ui.tab({ label: 'Two', icon: 'terminal' }, [ui.text('2')])])]),
    has: [/role="tablist" class="pb-tablist" aria-label="Details"/, /role="tab" id="pb-tabs-\d+-tab-0" aria-controls="pb-tabs-\d+-panel-0" aria-selected="true" tabindex="0"/,
      /aria-selected="false" tabindex="-1"/, /role="tabpanel" id="pb-tabs-\d+-panel-1" aria-labelledby="pb-tabs-\d+-tab-1" tabindex="0" hidden/] },
  { name: 'stack', html: () => draw([ui.stack({ direction: 'horizontal', gap: 'large' }, [ui.text('x')])]), has: [/pb-stack pb-horizontal pb-gap-large/] },
  { name: 'audience: a note who sees it', html: () => draw([ui.stack({ audience: ['mem_1', 'mem_2'] }, [ui.text('Only you')])]),
    has: [/<div class="pb-audience" data-audience="2"><span class="pb-audience-note">Only 2 members see this<\/span>/] },
  { name: 'item: title, description, badge, trailing', html: () => draw([ui.item({ title: 'Fix bug', description: 'Assigned', trailing: 'P1', href: 'https://t.example.com/1' }, [ui.badge({ label: 'P1', tone: 'danger' })])]),
    has: [/pb-item-title"><a href="https:\/\/t.example.com\/1"/, /pb-item-description">Assigned/, /pb-badge pb-tone-danger">P1/] },
  { name: 'callout with tone', html: () => draw([ui.callout({ tone: 'warning', title: 'Heads up' }, 'Deploys pause.')]),
    has: [/<div class="pb-callout pb-tone-warning" role="note">/, /<strong class="pb-callout-title">Heads up<\/strong>/] },
  { name: 'step current', html: () => draw([ui.step({ label: 'Build', state: 'current', description: '3 min' })]),
    has: [/class="pb-step pb-step-current" aria-current="step"/, /pb-step-label">Build/] },
  { name: 'quote with attribution', html: () => draw([ui.quote('Ship it.', { attribution: 'Grace', href: 'https://q.example.com' })]),
    has: [/<figure class="pb-quote"><blockquote cite="https:\/\/q.example.com"><p>Ship it.<\/p><\/blockquote><figcaption>— <a/] },
  { name: 'file with size', html: () => draw([ui.file({ name: 'r.pdf', url: 'https://f.example.com/r.pdf', size: 2048, mimeType: 'application/pdf' })]),
    has: [/href="https:\/\/f.example.com\/r.pdf" class="pb-file-name"/, /2.0 KB · application\/pdf/] },
  { name: 'image from a URL', html: () => draw([ui.image({ src: 'https://cdn.example.com/c.png', alt: 'Signups', width: 640, height: 320 })]),
    has: [/<img class="pb-image" src="https:\/\/cdn.example.com\/c.png" alt="Signups" width="640" height="320" loading="lazy">/] },
  { name: 'image from an asset id, resolved by the caller', html: () => renderBlock({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [{ type: 'uiImage', attrs: { src: 'ast_123', alt: 'Logo' } }, { type: 'uiActions' }] }, { assetUrl: (id) => `https://assets.example.com/${id}` }),
    has: [/src="https:\/\/assets.example.com\/ast_123" alt="Logo"/] },
  { name: 'image from an asset id without a resolver: its alt text', html: () => renderBlock({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [{ type: 'uiImage', attrs: { src: 'ast_123', alt: 'Logo' } }] }),
    has: [/<span class="pb-image-missing" role="img" aria-label="Logo">Logo<\/span>/], hasNot: [/<img/] },
  { name: 'progress with max and unit', html: () => draw([ui.progress({ value: 3, max: 5, unit: 'tasks', label: 'Checklist', tone: 'success' })]),
    has: [/<progress value="3" max="5" aria-label="Checklist" aria-valuetext="3 of 5 tasks">/] },
  { name: 'progress as a fraction', html: () => draw([ui.progress({ value: 0.25 })]), has: [/aria-valuetext="25%"/] },
  { name: 'avatar stack', html: () => draw([ui.avatarStack({ people: [{ name: 'Ada' }, { name: 'Grace' }], label: 'Reviewers' })]),
    has: [/role="group" aria-label="Reviewers"/, /<span class="pb-avatar" role="img" aria-label="Ada">A<\/span>/] },
  { name: 'icon with a label: text for screen readers', html: () => draw([ui.item({ title: 'Flaky' }, [ui.icon({ name: 'warning', tone: 'warning', label: 'Flaky test' })])]),
    has: [/pb-icon-wrap pb-tone-warning/, /<span class="pb-sr">Flaky test<\/span>/] },
  { name: 'button: action reference', html: () => draw([], {}, [ui.button({ label: 'Approve', action: 'approve', intent: 'primary' })]),
    has: [/<button type="button" class="pb-button pb-primary" data-ref="a0"><span>Approve<\/span><\/button>/] },
  { name: 'button pending: busy, and every action control disabled', html: () => draw([], { pending: { ref: 'a0' } }, [ui.button({ label: 'Approve', action: 'approve' }), ui.button({ label: 'Other', action: 'other' })]),
    has: [/data-ref="a0" disabled aria-busy="true">.*Approve · Working…/, /data-ref="a1" disabled>/, /<article class="pb-block pb-pending"/] },
  { name: 'destructive button: a confirm dialog holds the confirming button', html: () => draw([], {}, [ui.button({ label: 'Delete', action: 'delete', intent: 'destructive', confirm: { title: 'Delete this run?', body: 'No undo.' } })]),
    has: [/<button type="button" class="pb-button pb-destructive" data-confirm="pb-confirm-0" aria-haspopup="dialog">/,
      /<dialog id="pb-confirm-0" class="pb-confirm" aria-labelledby="pb-confirm-0-title"><h2 id="pb-confirm-0-title" class="pb-confirm-title">Delete this run\?<\/h2><p class="pb-confirm-body">No undo.<\/p>/,
      /data-ref="a0" data-confirmed="true">Confirm<\/button>/], hasNot: [/data-ref="a0"><span>Delete/] },
  { name: 'link button', html: () => draw([], {}, [ui.linkButton({ label: 'Open', href: 'https://ci.example.com/42' })]),
    has: [/<a class="pb-button" href="https:\/\/ci.example.com\/42" rel="noopener noreferrer nofollow" target="_blank">/] },
  { name: 'copy button', html: () => draw([], {}, [ui.copyButton({ label: 'Copy ID', copyText: 'run_8f2c' })]), has: [/data-copy="run_8f2c"/] },
  { name: 'menu: a disclosure of buttons and links', html: () => draw([], {}, [ui.menu({ label: 'More' }, [ui.menuItem({ label: 'Snooze', action: 'snooze' }), ui.menuItem({ label: 'Docs', href: 'https://docs.example.com' })])]),
    has: [/<details class="pb-menu"><summary class="pb-button">More<\/summary><ul class="pb-menu-list"><li><button type="button" class="pb-menu-item" data-ref="a0">/, /<a class="pb-menu-item" href="https:\/\/docs.example.com"/] },
  { name: 'row', html: () => draw([ui.row([ui.text('is reviewing'), ui.button({ label: 'Remind', action: 'remind' })])]), has: [/<div class="pb-row"><p class="pb-text">is reviewing<\/p><button/] },
  { name: 'final: controls disabled, a closing note', html: () => draw([], { final: { summary: 'Approved by Ada' } }, [ui.button({ label: 'Approve', action: 'approve' })]),
    has: [/<article class="pb-block pb-final"/, /data-ref="a0" disabled>/, /<p class="pb-final-note" role="note">Closed: Approved by Ada<\/p>/] },
  { name: 'inline error of a failed delivery', html: () => draw([], { error: { message: "The app didn't answer in time." } }),
    has: [/<p class="pb-error" role="alert">The app didn&#39;t answer in time.<\/p>/, /pb-has-error/] },
  { name: 'notice of an action', html: () => draw([], { notice: { tone: 'success', text: 'Saved' } }), has: [/<p class="pb-notice pb-tone-success" role="status">Saved<\/p>/] },
  { name: 'openUrl: a link to open', html: () => draw([], { openUrl: 'https://pay.example.com/x' }), has: [/<a href="https:\/\/pay.example.com\/x" rel="noopener noreferrer" target="_blank" data-open-url="true">Open pay.example.com<\/a>/] },
  { name: 'metrics: value, delta with tone, trend', html: () => draw([ui.metrics([ui.metric({ label: 'Conversion', value: 0.034, format: 'percent', delta: { value: 0.004, tone: 'positive' }, trend: [1, 3, 2] }), ui.metric({ label: 'Revenue', value: 1250, format: 'currency', currency: 'EUR' })])]),
    has: [/<dt class="pb-metric-label">Conversion<\/dt><dd class="pb-metric-value">3.4%<\/dd>/, /pb-delta pb-delta-positive"><span aria-hidden="true">▲<\/span>\+0.4%/, /<svg class="pb-sparkline"/, /Trend: 1, 3, 2/, /€1,250.00/] },
  { name: 'meta list', html: () => draw([ui.metaList([ui.metaItem({ text: 'Due Friday', icon: 'calendar' })])]), has: [/<ul class="pb-meta"><li class="pb-meta-item"><span class="pb-icon" data-icon="calendar" aria-hidden="true">/] },
  { name: 'facts', html: () => draw([ui.facts([ui.fact({ label: 'Owner', value: 'Ada' })])]), has: [/<dl class="pb-facts"><div class="pb-fact"><dt>Owner<\/dt><dd>Ada<\/dd><\/div><\/dl>/] },
  { name: 'table: caption, column headers, typed cells, row menu', html: () => draw([ui.table({ title: 'Tasks', columns: [{ label: 'Task' }, { label: 'Hours', type: 'number', unit: 'h' }, { label: 'State', type: 'status' }], rows: [{ cells: ['Review', 2, { label: 'Open', tone: 'info' }], menu: [{ label: 'Close', action: 'close', args: { id: 1 } }] }] })]),
    has: [/<caption>Tasks<\/caption>/, /<th scope="col" class="pb-end">Hours<\/th>/, /<td class="pb-end">2 h<\/td>/, /pb-status pb-tone-info/, /<summary class="pb-button"><span class="pb-icon" data-icon="more"/, /data-ref="a0"/] },
  { name: 'chart: an SVG picture and a table of the numbers', html: () => draw([ui.chart({ chartType: 'bar', title: 'Deploys', series: [{ name: 'Prod', points: [{ label: 'Mon', value: 4 }, { label: 'Tue', value: 6 }] }] })]),
    has: [/<figcaption>Deploys<\/figcaption><svg class="pb-chart-svg pb-chart-xy"/, /<rect class="pb-series-0"/, /<table class="pb-sr"><caption>Deploys<\/caption><tbody><tr><th scope="row">Prod · Mon<\/th><td>4<\/td>/] },
  { name: 'donut chart', html: () => draw([ui.chart({ chartType: 'donut', series: [{ name: 'Share', points: [{ label: 'A', value: 1 }, { label: 'B', value: 3 }] }] })]),
    has: [/pb-chart-donut/, /stroke-dasharray="25.00 75.00"/, /stroke-dasharray="75.00 25.00"/] },
  { name: 'form: labelled fields and a submit button with its reference', html: () => draw([ui.form([ui.textInput({ name: 'reason', label: 'Reason', required: true, multiline: true }), ui.submit({ label: 'Send', action: 'reject' })])]),
    has: [/<form class="pb-form" data-form="true" novalidate>/, /<label for="pb-field-reason" class="pb-label">Reason<span class="pb-required" aria-hidden="true"> \*<\/span><\/label><textarea id="pb-field-reason" name="reason" required rows="3"><\/textarea>/,
      /<button type="submit" class="pb-button pb-primary" data-submit-ref="a0">/] },
  { name: 'form with a field error: invalid and described by the message', html: () => draw([ui.form([ui.textInput({ name: 'step', label: 'Step', value: '0' }), ui.submit({ label: 'Save', action: 'save' })])], { fieldErrors: { step: 'At least 1' } }),
    has: [/<input id="pb-field-step" name="step" aria-invalid="true" aria-describedby="pb-field-step-error" type="text" value="0">/, /<p id="pb-field-step-error" class="pb-field-error">At least 1<\/p>/] },
  { name: 'static select with a change handler', html: () => draw([ui.select({ name: 'env', label: 'Environment', onChange: 'pick', value: 'prod', options: [{ value: 'prod', label: 'Production' }, { value: 'dev', label: 'Dev' }] })]),
    has: [/<select id="pb-field-env" name="env" data-change="true">/, /<option value="prod" selected>Production<\/option>/] },
  { name: 'search select: a combobox with its listbox', html: () => draw([ui.form([ui.select({ name: 'owner', label: 'Owner', search: 'find-owner', value: 'u_7', selectedLabel: 'Ada' }), ui.submit({ label: 'Save', action: 'save' })])]),
    has: [/data-search="owner"/, /role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="pb-field-owner-options"/, /value="Ada"/, /<input type="hidden" name="owner" value="u_7">/, /role="listbox"/] },
  { name: 'choice group with tallies: the member\'s pick and everyone\'s counts', html: () => draw([ui.choiceGroup({ name: 'lunch', label: 'Lunch?', shared: true, onChange: 'vote', results: 'tallies', choices: [{ value: 'pizza', label: 'Pizza' }, { value: 'sushi', label: 'Sushi' }] })], { inputs: { lunch: { tallies: { pizza: 3, sushi: 1 }, mine: ['pizza'] } } }),
    has: [/<fieldset class="pb-field pb-choices" id="pb-field-lunch" data-field="lunch" data-change="true"><legend class="pb-label">Lunch\?<\/legend>/, /type="radio" id="pb-field-lunch-0" name="lunch" value="pizza" checked>/, /style="width:75%".*3 votes/, /1 vote</] },
  { name: 'choice group with integration counts, multiple', html: () => draw([ui.choiceGroup({ name: 'tags', label: 'Tags', multiple: true, onChange: 'tag', results: 'integration', choices: [{ value: 'a', label: 'A', count: 2 }, { value: 'b', label: 'B', count: 0 }] })]),
    has: [/type="checkbox"/, /data-multiple="true"/, /2 votes/, /0 votes/] },
  { name: 'toggle: a switch', html: () => draw([ui.toggle({ name: 'notify', label: 'Notify me', description: 'By mail', onChange: 'set', value: true })]),
    has: [/<input type="checkbox" role="switch" id="pb-field-notify" name="notify" checked data-change="true" aria-describedby="pb-field-notify-description">/] },
  { name: 'prose: headings below the card title, lists, code', html: () => draw([ui.prose([ui.heading(2, 'Notes'), ui.paragraph(['See ', ui.link('RFC', 'https://rfc.example.com/9')]), ui.orderedList(['One', 'Two']), ui.blockquote([ui.paragraph('Q')]), ui.codeBlock('npm test', 'sh')])]),
    has: [/<div class="pb-prose"><h5>Notes<\/h5>/, /<ol><li><p>One<\/p><\/li>/, /<blockquote><p>Q<\/p><\/blockquote>/, /<pre><code data-language="sh">npm test<\/code><\/pre>/] },
];

describe('renderBlock: every component in every state', () => {
  it.each(rows)('$name', ({ html, has, hasNot }) => {
    const out = html();
    for (const re of has) expect(out).toMatch(re);
    for (const re of hasNot ?? []) expect(out).not.toMatch(re);
  });

  it('has a renderer for every node type of the catalog', () => {
    // The root is drawn by renderBlock itself.
    const missing = [...REGISTRY.keys()].filter((type) => type !== 'uiBlock' && RENDERERS[type] === undefined);
    expect(missing).toEqual([]);
  });

  it('pins a validator\'s message to the node its path leads to (the playground)', () => {
    const tree = { type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [{ type: 'uiText', content: [{ type: 'text', text: 'fine' }] }, { type: 'uiActions', content: [{ type: 'uiButton', attrs: { buttonType: 'action', label: '' } }] }] };
    const problem = { message: 'Labels need visible text', path: ['content', 1, 'content', 0, 'attrs', 'label'] };
    expect(validateTree(tree)).toMatchObject({ valid: false, path: problem.path });
    const html = renderBlock(tree, { problem });
    expect(html).toMatch(/<div class="pb-actions"><div class="pb-problem-at"><p class="pb-problem" role="alert">Labels need visible text<\/p><button/);
    // The unlabelled button still has a name.
    expect(html).toContain('<span>(no label)</span></button>');
    expect(html.match(/pb-problem-at/g)).toHaveLength(1);
    expect(renderBlock(tree, { problem: { message: 'Bad table', path: ['actions', 'a0'] } })).toMatch(/^<article[^>]*><div class="pb-problem-at"><p class="pb-problem" role="alert">Bad table/);
  });

  it('draws an unknown type as a named placeholder and a non-object tree as an empty block', () => {
    expect(renderBlock({ type: 'uiBlock', attrs: { summary: 'S' }, content: [{ type: 'uiMarquee' }] })).toContain('Unsupported component uiMarquee');
    expect(renderBlock(null)).toMatch(/^<article class="pb-block" aria-label="App card">/);
  });
});
