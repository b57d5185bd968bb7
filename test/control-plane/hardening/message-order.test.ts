/**
 * One ordering key for messages everywhere (issue 13, item 4): `(created_at, seq)`, the order they
 * were written. Messages written in one millisecond (the injected clock does not move) are listed
 * in that order, page by page through the cursors, and the post that later top-level messages
 * answer (`replyTo` of their `reply.created`) is the first one listed.
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
  it('are listed in the order they were written, and the first of them is the first post', async () => {
    const setup = await seedWorkspace(stack);
    const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: 'https://app.example.com/hook', events: ['post.created', 'reply.created'] });
    await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    const client = setup.ws.client;
    const conversation = (await client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Same instant' })).body.conversation.id as string;
    const start = stack.clock.now();
    // Ids are random, so with eight messages id order is the written order only by chance (1 in 40,320).
    const written: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await client.post(`/conversations/${conversation}/messages`, { markdown: `message ${i}` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      written.push(res.body.message.id);
    }
    expect(stack.clock.now()).toBe(start);

    const all = (await client.get(`/conversations/${conversation}/messages`)).body.items.map((m: { id: string }) => m.id);
    expect(all).toEqual(written);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ id: string }>; nextCursor: string | null } } =
        await client.get(`/conversations/${conversation}/messages?limit=3${cursor === null ? '' : `&cursor=${cursor}`}`);
      paged.push(...page.body.items.map((m) => m.id));
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(paged).toEqual(written);

    const { rows } = await stack.db.query<{ payload: { reply: { id: string; replyTo: string } } }>(
      `select payload from outbox_events where type = 'reply.created' and payload->'reply'->>'id' = any($1)`, [written.slice(1)]);
    expect(rows).toHaveLength(7);
    for (const row of rows) expect(row.payload.reply.replyTo).toBe(written[0]);
  });

  it('a cursor this API did not issue is a 400, not a database error', async () => {
    const setup = await seedWorkspace(stack);
    const conversation = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Cursors' })).body.conversation.id as string;
    const forged = Buffer.from(JSON.stringify([new Date(0).toISOString(), 'msg_not_a_seq'])).toString('base64url');
    const res = await setup.ws.client.get(`/conversations/${conversation}/messages?cursor=${forged}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['cursor'] });
  });
});
