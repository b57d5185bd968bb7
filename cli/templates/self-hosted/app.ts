// {{name}}: a self-hosted app (it runs on your own server; server.ts serves it on node:http). A
// note block and a /note command that posts one. `platform deploy` syncs the manifest this file
// computes; the platform then sends deliveries, signed, to `endpoint`.
import * as z from 'zod';
import { defineApp, defineBlock, defineCommand, ui } from '@platform/sdk';

const note = defineBlock({
  type: 'note',
  title: 'Note',
  insertable: true,
  props: z.object({ text: z.string().min(1).max(200) }),
  state: z.object({ done: z.boolean().default(false) }),
  actions: {
    done: { handler: () => ({ state: { done: true } }) },
  },
  render: ({ props, state }) =>
    ui.block({ summary: props.text }, [
      ui.header({ title: props.text, trailing: state.done ? 'done' : 'open' }),
      ui.actions([ui.button({ label: 'Done', action: 'done' })]),
    ]),
});

const post = defineCommand({
  name: 'note',
  description: 'Post a note',
  options: [{ name: 'text', type: 'string', description: 'What it says', required: true }],
  handler: ({ options }) => ({ visibility: 'public', block: { type: 'note', props: { text: options.text } } }),
});

export default defineApp({
  name: '{{name}}',
  slug: '{{slug}}',
  hosting: 'self',
  // Where the platform sends deliveries: your server's public https:// URL of server.ts's /platform.
  endpoint: 'https://{{slug}}.example.com/platform',
  blocks: [note],
  commands: [post],
  routes: { 'GET /health': () => new Response('ok') },
});
