/**
 * Trees shared by the catalog tests: a valid block that uses every component, and helpers that
 * wrap one component in the smallest valid block around it.
 */
import { renderTree, ui, type Draft } from '../../../sandbox-lib/src/catalog/index.ts';

/** A block holding every component of catalog v1, valid as a whole. */
export function kitchenSink(): Draft {
  return ui.block({ summary: 'Release 2.4 needs your review' }, [
    ui.header({ title: ['Release ', ui.italic('2.4')], trailing: '2h ago' }, [ui.status({ label: 'Pending', tone: 'warning' }), ui.badge({ label: 'beta', icon: 'star' }), ui.icon({ name: 'rocket' })]),
    ui.item({ title: 'Fix login bug', href: 'https://t.example.com/1', description: 'Assigned to Ada', trailing: 'P1', avatarSrc: 'https://cdn.example.com/ada.png' }, [ui.badge({ label: 'bug', tone: 'danger' })]),
    ui.text(['Built ', ui.bold('green'), ' — ', ui.link('logs', 'https://ci.example.com/42')], { variant: 'muted' }),
    ui.prose([
      ui.heading(2, 'Notes'),
      ui.paragraph(['See ', ui.code('CHANGELOG.md')]),
      ui.bulletList(['One', ui.listItem([ui.paragraph('Two'), ui.orderedList(['Two a', 'Two b'])])]),
      ui.blockquote([ui.paragraph('Measure twice.')]),
      ui.codeBlock('npm run release', 'sh'),
    ]),
    ui.row([ui.avatarStack({ people: [{ name: 'Ada' }, { name: 'Grace', avatarSrc: 'https://cdn.example.com/g.png' }], label: 'Reviewers' }), ui.button({ label: 'Remind', action: 'remind' }), ui.menu({ label: 'More' }, [ui.menuItem({ label: 'Mute', action: 'mute' })])]),
    ui.columns([ui.column([ui.facts([ui.fact({ label: 'Owner', value: 'Ada' }), ui.fact({ label: 'Region', value: 'eu-west-1' })])]), ui.column({ width: 'fill' }, [ui.metaList([ui.metaItem({ text: 'Due Friday', icon: 'calendar' })])])]),
    ui.tabs({ title: 'Details' }, [
      ui.tab({ label: 'Figures' }, [
        ui.metrics([ui.metric({ label: 'Errors', value: 0.012, format: 'percent', delta: { value: -0.004, tone: 'positive' }, trend: [0.02, 0.015, 0.012] }), ui.metric({ label: 'Cost', value: 120.5, format: 'currency', currency: 'EUR' }), ui.metric({ label: 'Latency', value: 84, unit: 'ms' })]),
        ui.chart({ chartType: 'donut', title: 'Traffic', series: [{ name: 'Share', points: [{ label: 'Web', value: 3 }, { label: 'API', value: 1 }] }] }),
      ]),
      ui.tab({ label: 'Tasks' }, [
        ui.table({
          title: 'Open tasks',
          columns: [{ label: 'Task' }, { label: 'Hours', type: 'number', unit: 'h' }, { label: 'State', type: 'status' }, { label: 'Tag', type: 'badge' }, { label: 'Link', type: 'link' }, { label: 'Who', type: 'person' }, { label: 'Due', type: 'date' }],
          rows: [{ cells: ['Review', 2, { label: 'Open', tone: 'info' }, { label: 'ops' }, { label: 'Ticket', href: 'https://t.example.com/2' }, { name: 'Ada' }, '2025-01-31'], menu: [{ label: 'Reopen', action: 'reopen', args: { id: 2 } }, { label: 'Delete', action: 'delete', intent: 'destructive', confirm: { title: 'Delete the task?' } }] }, { cells: [null, null, null, null, null, null, null] }],
        }),
      ]),
    ]),
    ui.section({ title: 'Log', handle: 'log', collapsed: true }, [ui.callout({ tone: 'neutral', icon: 'info', title: 'Heads up' }, 'Deploys pause at 17:00.')]),
    ui.step({ label: 'Build', state: 'done', description: 'Took 3 minutes' }),
    ui.quote('Ship it.', { attribution: 'Grace', href: 'https://q.example.com' }),
    ui.file({ name: 'report.pdf', url: 'https://files.example.com/r.pdf', size: 48213, mimeType: 'application/pdf' }),
    ui.image({ src: 'https://cdn.example.com/chart.png', alt: 'Weekly signups', width: 640, height: 320 }),
    ui.progress({ value: 3, max: 5, unit: 'tasks', label: 'Checklist', tone: 'success' }),
    ui.stack({ direction: 'vertical', audience: ['mem_1', 'mem_2'] }, [ui.text('Only reviewers see this.')]),
    ui.choiceGroup({ name: 'lunch', label: 'Lunch?', shared: true, onChange: 'vote', results: 'tallies', choices: [{ value: 'pizza', label: 'Pizza' }, { value: 'sushi', label: 'Sushi' }] }),
    ui.toggle({ name: 'watch', label: 'Watch this release', onChange: 'watch' }),
    ui.form([
      ui.section({ title: 'Reason' }, [ui.textInput({ name: 'reason', label: 'Why?', placeholder: 'Tell us', maxLength: 200, multiline: true })]),
      ui.select({ name: 'env', label: 'Environment', options: [{ value: 'prod', label: 'Production' }, { value: 'dev', label: 'Development' }], value: 'prod' }),
      ui.select({ name: 'owner', label: 'Owner', search: 'find-owner', value: 'u_7', selectedLabel: 'Ada' }),
      ui.choiceGroup({ name: 'areas', label: 'Areas', multiple: true, value: ['api'], results: 'integration', choices: [{ value: 'api', label: 'API', count: 3 }, { value: 'web', label: 'Web', description: 'The site', count: 1 }] }),
      ui.toggle({ name: 'urgent', label: 'Urgent', description: 'Pages on-call', value: false }),
      ui.submit({ label: 'Send', action: 'reject' }),
    ]),
    ui.actions([
      ui.button({ label: 'Approve', action: 'approve', intent: 'primary', audience: ['mem_1'] }),
      ui.button({ label: 'Reject', action: 'reject', intent: 'destructive', confirm: { title: 'Reject the release?', body: 'The team is told.' } }),
      ui.linkButton({ label: 'Open', href: 'https://ci.example.com/42' }),
      ui.copyButton({ label: 'Copy ID', copyText: 'rel_2.4' }),
      ui.toggleButton({ label: 'Show log', target: 'log' }),
      ui.menu({ label: 'More' }, [ui.menuItem({ label: 'Docs', href: 'https://docs.example.com' }), ui.menuItem({ label: 'Snooze', action: 'snooze', icon: 'clock' })]),
    ]),
    ui.footer(['Synced from ', ui.link('CI', 'https://ci.example.com')]),
  ]);
}

/** `{ tree, actions }` of the kitchen sink. */
export const sink = () => renderTree(kitchenSink());

/** The smallest valid block around `body` (flow elements), with its rendered table. */
export function inBlock(body: Draft[], actions: Draft[] = []) {
  return renderTree(ui.block({ summary: 'Test block' }, [...body, ui.actions(actions)]));
}
