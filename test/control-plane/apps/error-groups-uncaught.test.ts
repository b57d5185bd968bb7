/**
 * Issue 25 item 3 on a real runtime node: errors nothing caught (a handler of a bundle without the
 * SDK that throws, a rejected `waitUntil` promise after the answer) are error groups of the hosted
 * app with their counts, and the ids and numbers in their messages are masked, so two requests are
 * one group.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWorkspace, Stack } from '../../helpers/stack.ts';
import { createApp } from './helpers.ts';
import { startStackWithRuntime, type StackWithRuntime } from './runtime.ts';

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  env = await startStackWithRuntime();
  stack = env.stack;
  ws = await stack.createWorkspace();
}, 90_000);
afterAll(async () => env?.stop());

const bundleOf = (slug: string) => new TextEncoder().encode(`export default {
  manifest: ${JSON.stringify({ schemaVersion: 1, name: 'Late', slug, hosting: 'platform' })},
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    const n = url.searchParams.get('n');
    if (url.pathname.endsWith('/throw')) throw new TypeError('nothing caught item ' + n);
    ctx.waitUntil(Promise.reject(new Error('late failure for ins_' + n + 'abcdefgh after ' + n + ' ms')));
    return new Response('early');
  },
};
`);

const groupsOf = async (appId: string) => ((await stack.v0(ws.apiKey).get(`/apps/${appId}/errors`)).body.items as Array<{ name: string; message: string; count: number }>)
  .map((g) => [g.name, g.message, g.count]).sort();

describe('errors no handler caught', () => {
  it('are groups of the hosted app, one per kind, their numbers and ids masked', { timeout: 60_000 }, async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform', slug: 'late-errors' });
    const up = await stack.v0(ws.apiKey).request('POST', `/apps/${app.id}/versions?target=production`, { rawBody: bundleOf('late-errors'), headers: { 'content-type': 'application/javascript' } });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    for (const n of [7, 1234]) {
      expect(await (await fetch(`${env.runtimeUrl}/apps/late-errors/late?n=${n}`)).text()).toBe('early');
      expect((await fetch(`${env.runtimeUrl}/apps/late-errors/throw?n=${n}`)).status).toBe(500);
    }
    // The node ships its lines on its own flush; the groups are folded as they are stored.
    await expect.poll(() => groupsOf(app.id), { timeout: 30_000 }).toEqual([
      ['Error', 'late failure for <id> after <n> ms', 2],
      ['TypeError', 'nothing caught item <n>', 2],
    ]);
  });
});
