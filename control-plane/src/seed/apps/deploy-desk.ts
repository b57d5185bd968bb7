// The demo workspace's example app (`npm start` bundles it with esbuild, uploads it through the
// tooling endpoint and installs it; control-plane/src/seed/examples.ts). Written with the
// authoring API the way an app author would, it shows what cards can do in the console:
// - a `deploy` card: Approve (a button that changes the card, and counts the service's approvals
//   in the app's storage), a reject form whose reason is
//   checked (a field error when it is too short), a destructive Cancel behind a confirm;
// - a `poll` card: a shared choice group with everyone's tallies;
// - `/deploy` (options: service, environment, reviewer) posting a deploy card, and `/status`
//   answering privately (share or dismiss it);
// - a `remind` message action answering privately.
import { z } from 'zod';
import { defineApp, defineBlock, defineCommand, defineMessageAction, ui } from '@platform/sdk';

const doc = (text: string) => ({ type: 'doc' as const, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

const STATUS = {
  waiting: { label: 'Waiting', tone: 'warning' },
  approved: { label: 'Approved', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
} as const;

const deploy = defineBlock({
  type: 'deploy',
  title: 'Deploy approval',
  description: 'Asks for an approval before a deploy goes out',
  insertable: true,
  props: z.object({ service: z.string().min(1).max(40), version: z.string().min(1).max(20), env: z.enum(['staging', 'production']).default('production') }),
  state: z.object({
    status: z.enum(['waiting', 'approved', 'rejected', 'cancelled']).default('waiting'), by: z.string().default(''), reason: z.string().default(''),
    approvals: z.number().int().min(0).default(0),
  }),
  actions: {
    approve: {
      // The app's storage counts approvals per service across cards; the count commits with this
      // card's new state (docs/decisions/storage.md), and the handler reads its own write.
      handler: async ({ state, actor, props, storage }) => {
        await storage.sum(`approvals/${props.service}`, 1);
        const approvals = (await storage.get<number>(`approvals/${props.service}`)).value ?? 1;
        return { state: { ...state, status: 'approved' as const, by: actor?.name ?? 'someone', approvals }, notice: { tone: 'success' as const, text: 'Approved' } };
      },
    },
    reject: {
      input: z.object({ reason: z.string().trim().min(5, 'Say why in at least 5 characters').max(200, 'Keep it under 200 characters') }),
      handler: ({ state, actor, input }) => ({ state: { ...state, status: 'rejected' as const, by: actor?.name ?? 'someone', reason: input?.reason ?? '' } }),
    },
    cancel: {
      destructive: true,
      handler: ({ state, actor }) => ({ state: { ...state, status: 'cancelled' as const, by: actor?.name ?? 'someone' } }),
    },
  },
  render: ({ props, state }) => {
    const status = STATUS[state.status];
    const waiting = state.status === 'waiting';
    const title = `Deploy ${props.service} ${props.version}`;
    return ui.block({ summary: `${title}: ${status.label.toLowerCase()}` }, [
      ui.header({ title }, [ui.status({ label: status.label, tone: status.tone })]),
      ui.facts([
        ui.fact({ label: 'Environment', value: props.env }),
        ...(state.by === '' ? [] : [ui.fact({ label: waiting ? 'Asked by' : `${status.label} by`, value: state.by })]),
        ...(state.reason === '' ? [] : [ui.fact({ label: 'Reason', value: state.reason })]),
        ...(state.approvals === 0 ? [] : [ui.fact({ label: `Approvals of ${props.service}`, value: String(state.approvals) })]),
      ]),
      ...(waiting ? [ui.form([
        ui.textInput({ name: 'reason', label: 'Reason to reject', placeholder: 'What needs to change?' }),
        ui.submit({ label: 'Reject', action: 'reject' }),
      ])] : []),
      ui.actions(waiting ? [
        ui.button({ label: 'Approve', action: 'approve', intent: 'primary' }),
        ui.button({ label: 'Cancel deploy', action: 'cancel', intent: 'destructive', confirm: { title: 'Cancel this deploy?', body: 'The release will not go out.' } }),
      ] : []),
    ]);
  },
});

const CHOICES = [{ value: 'pizza', label: 'Pizza' }, { value: 'sushi', label: 'Sushi' }, { value: 'salad', label: 'Salad' }];

const poll = defineBlock({
  type: 'poll',
  title: 'Lunch poll',
  insertable: true,
  props: z.object({ question: z.string().min(1).max(60) }),
  state: z.object({}),
  inputs: { lunch: { values: CHOICES.map((c) => c.value) } },
  actions: { vote: { handler: () => ({}) } },
  render: ({ props }) => ui.block({ summary: props.question }, [
    ui.header({ title: props.question }),
    ui.choiceGroup({ name: 'lunch', label: 'Your pick', shared: true, onChange: 'vote', results: 'tallies', choices: CHOICES }),
    ui.actions([]),
  ]),
});

const deployCommand = defineCommand({
  name: 'deploy',
  description: 'Ask for a deploy approval',
  options: [
    { name: 'service', type: 'string', description: 'What to deploy', required: true },
    { name: 'env', type: 'choice', description: 'Where', choices: [{ value: 'staging', label: 'Staging' }, { value: 'production', label: 'Production' }] },
    { name: 'reviewer', type: 'member', description: 'Who should approve' },
  ],
  scopes: ['replies:write'],
  handler: ({ options }) => ({
    visibility: 'public',
    block: { type: 'deploy', props: { service: String(options.service), version: 'v1.0.0', env: options.env === 'staging' ? 'staging' : 'production' } },
  }),
});

const statusCommand = defineCommand({
  name: 'status',
  description: 'How the deploys are going (only you see the answer)',
  handler: () => ({ visibility: 'private', content: doc('All systems normal: 3 deploys went out today.') }),
});

const remind = defineMessageAction({
  id: 'remind',
  label: 'Remind me',
  handler: ({ context }) => ({ visibility: 'private', content: doc(`I will remind you about: ${context.message?.text.slice(0, 80) ?? 'this message'}`) }),
});

export default defineApp({
  name: 'Deploy desk',
  slug: 'deploy-desk',
  hosting: 'platform',
  description: 'Deploy approvals and a lunch poll: the demo workspace\'s example app',
  scopes: ['blocks:write', 'notifications:write', 'memories:write', 'replies:write'],
  blocks: [deploy, poll],
  commands: [deployCommand, statusCommand],
  messageActions: [remind],
});
