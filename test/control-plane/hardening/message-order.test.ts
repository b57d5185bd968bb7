/**
 * One ordering key for messages everywhere (issue 13, item 4): `(created_at, id)`. Messages written in
 * one millisecond (the injected clock does not move) are listed in that order, and the post that
 * later top-level messages answer (`replyTo` of their `reply.created`) is the first one listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall, seedWorkspace } from '../lifecycle/fixtures.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('messages in one millisecond', () => {
  it('the first post of a conversation is the first one listed', async () => {
    const setup = await seedWorkspace(stack);
    const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: 'https://app.example.com/hook', events: ['post.created', 'reply.created'] });
    await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    const client = setup.ws.client;
    const conversation = (await client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Same instant' })).body.conversation.id as string;
    const post = async (markdown: string) => {
      const res = await client.post(`/conversations/${conversation}/messages`, { markdown });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.message.id as string;
    };
    const listed = async () => (await client.get(`/conversations/${conversation}/messages`)).body.items.map((m: { id: string }) => m.id) as string[];

    // Ids are random: post until one written later sorts first, so insertion order and the listed
    // order differ (each post has an even chance; 40 tries leave no doubt).
    const start = stack.clock.now();
    const first = await post('posted first');
    let order = await listed();
    for (let i = 0; i < 40 && order[0] === first; i++) {
      await post(`posted at the same instant ${i}`);
      order = await listed();
    }
    expect(stack.clock.now()).toBe(start);
    expect(order[0]).not.toBe(first);

    const last = await post('answers the first post listed');
    const { rows } = await stack.db.query<{ payload: { reply: { id: string; replyTo: string } } }>(
      `select payload from outbox_events where type = 'reply.created' and payload->'reply'->>'id' = $1`, [last]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload.reply.replyTo).toBe(order[0]);
  });
});
