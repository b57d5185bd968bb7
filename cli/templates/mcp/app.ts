// {{name}}: a hosted MCP server (one read-only tool, `greet`) that the platform runs in its sandbox.
// The URL must be on the service's hosted-app domain or a domain you verified.
import * as z from 'zod';
import { defineApp, defineMcp, defineTool } from '@platform/sdk';

const mcp = defineMcp({
  url: 'https://{{slug}}.apps.localhost/mcp',
  auth: 'none',
  tools: [
    defineTool({
      name: 'greet',
      description: 'Greets someone',
      readOnly: true,
      input: z.object({ name: z.string().min(1).max(40) }),
      handler: ({ args, env }) => `${String(env.GREETING)}, ${args.name}!`,
    }),
  ],
});

export default defineApp({
  name: '{{name}}',
  slug: '{{slug}}',
  hosting: 'platform',
  env: { GREETING: z.string().default('Hello') },
  mcp,
});
