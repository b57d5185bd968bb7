// {{name}}: a hosted app (it runs on the platform's runtime nodes). A block members can wave at, a
// /hello command that posts one, and a public route. `platform deploy` bundles this file and
// uploads it; app.test.ts calls it as the platform would.
import * as z from 'zod';
import { defineApp, defineBlock, defineCommand, ui } from '@platform/sdk';

const greeting = defineBlock({
  type: 'greeting',
  title: 'Greeting',
  insertable: true,
  props: z.object({ name: z.string().min(1).max(40).default('world') }),
  state: z.object({ waves: z.int().min(0).default(0) }),
  actions: {
    wave: { handler: ({ state }) => ({ state: { waves: state.waves + 1 } }) },
  },
  render: ({ props, state }) =>
    ui.block({ summary: `Hello, ${props.name}` }, [
      ui.header({ title: `Hello, ${props.name}!`, trailing: `${state.waves} waves` }),
      ui.actions([ui.button({ label: 'Wave', action: 'wave' })]),
    ]),
});

const hello = defineCommand({
  name: 'hello',
  description: 'Post a greeting',
  options: [{ name: 'name', type: 'string', description: 'Who to greet', required: true }],
  handler: ({ options }) => ({ visibility: 'public', block: { type: 'greeting', props: { name: options.name } } }),
});

export default defineApp({
  name: '{{name}}',
  slug: '{{slug}}',
  hosting: 'platform',
  // Set per target with `platform env set GREETING=Howdy --plain --target production`.
  env: { GREETING: z.string().default('Hello') },
  blocks: [greeting],
  commands: [hello],
  routes: {
    'GET /hello/:name': (_request, ctx) => Response.json({ message: `${String(ctx.env.GREETING)}, ${ctx.params.name}!` }),
  },
});
