/**
 * Deleting a message over real HTTP as a cause of lifecycle events: the links the deleted messages
 * carried (a thread's root and its replies) produce `reference.removed` like an edit dropping them,
 * with the deletion's version, subject to reach; who may delete. Also the install events' payloads
 * carrying `version` themselves (written by the installs feature, not added by the envelope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDataSchemas } from '@platform/sdk';
import { envelopeJson } from '../../../control-plane/src/deliveries/pipeline/envelope.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { eventsOf, seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const ISSUE = { kind: 'issue', patterns: [{ id: 'issue', pattern: 'https://tracker.example.com/:org/issues/:id' }] };
const link = (n: number) => `https://tracker.example.com/acme/issues/${n}`;

let stack: Stack;
let setup: Awaited<ReturnType<typeof seedWorkspace>>;
let installId: string;
let uninvitedId: string;

beforeAll(async () => {
  stack = await startStack();
  setup = await seedWorkspace(stack);
  const workspaceId = setup.ws.workspace.id;
  const app = await seedApp(stack, { workspaceId, ownerId: setup.ws.owner.id, slug: 'tracker', references: [ISSUE], events: ['reference.created', 'reference.removed'] });
  installId = await seedInstall(stack, { appId: app.id, workspaceId });
  const other = await seedApp(stack, { workspaceId, ownerId: setup.ws.owner.id, slug: 'tracker-two', references: [ISSUE], events: ['reference.removed'] });
  uninvitedId = await seedInstall(stack, { appId: other.id, workspaceId });
  expect((await setup.ws.client.put(`/circles/${setup.privateCircle}/app-invitations/${app.id}`)).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

const removedSince = async (id: string, count: number) =>
  (await eventsOf(stack, id)).slice(count).filter((e) => e.type === 'reference.removed');

describe('deleting a message', () => {
  it('records reference.removed for each link of the message and of its replies, with the deletion\'s version and actor', async () => {
    const c = setup.ws.client;
    const conv = (await c.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Links' })).body.conversation.id;
    const root = (await c.post(`/conversations/${conv}/messages`, { markdown: `see ${link(1)} and ${link(2)}` })).body.message.id;
    const reply = (await setup.other.client.post(`/messages/${root}/replies`, { markdown: `also ${link(3)}` })).body.message.id;
    await c.patch(`/messages/${root}`, { markdown: `see ${link(1)} and ${link(2)}, edited` });
    const before = (await eventsOf(stack, installId)).length;

    // Not the author, not an admin: refused, nothing recorded.
    const refused = await setup.other.client.delete(`/messages/${root}`);
    expect(refused.status).toBe(403);
    expect(await removedSince(installId, before)).toEqual([]);

    expect((await c.delete(`/messages/${root}`)).status).toBe(204);
    const removed = await removedSince(installId, before);
    expect(removed.map((e) => [e.payload.reference.messageId, e.payload.reference.url, e.payload.reference.version])).toEqual([
      [root, link(1), 3], [root, link(2), 3], [reply, link(3), 2],
    ]);
    for (const e of removed) {
      expect(eventDataSchemas['reference.removed'].safeParse(e.payload).success).toBe(true);
      expect(e.actor).toEqual({ memberId: setup.ws.owner.id, name: setup.ws.owner.name });
    }
    expect((await c.get(`/messages/${reply}`)).status).toBe(404);
  });

  it('an admin may delete another member\'s message; reach still applies (a private circle: only the invited app)', async () => {
    const c = setup.ws.client;
    expect((await c.put(`/circles/${setup.privateCircle}/members/${setup.other.member.id}`)).status).toBeLessThan(300);
    const conv = (await c.post(`/circles/${setup.privateCircle}/conversations`, { title: 'Private links' })).body.conversation.id;
    const message = (await setup.other.client.post(`/conversations/${conv}/messages`, { markdown: link(9) })).body.message.id;
    const invited = (await eventsOf(stack, installId)).length;
    const uninvited = (await eventsOf(stack, uninvitedId)).length;
    expect((await c.delete(`/messages/${message}`)).status).toBe(204);
    expect((await removedSince(installId, invited)).map((e) => e.payload.reference.url)).toEqual([link(9)]);
    expect(await removedSince(uninvitedId, uninvited)).toEqual([]);
  });

  it('a member deletes their own direct message; it causes no event', async () => {
    const dm = (await setup.other.client.post('/direct-messages', { to: setup.ws.owner.id, markdown: link(7) })).body.message.id;
    const before = (await eventsOf(stack, installId)).length;
    expect((await setup.ws.client.delete(`/messages/${dm}`)).status).toBe(403);
    expect((await setup.other.client.delete(`/messages/${dm}`)).status).toBe(204);
    expect(await eventsOf(stack, installId)).toHaveLength(before);
  });
});

describe('install events carry version in their payloads', () => {
  it('app.installed and app.uninstalled: the install row\'s updated_at in ms, growing; the envelope passes data through', async () => {
    const workspaceId = setup.ws.workspace.id;
    const app = await seedApp(stack, { workspaceId, ownerId: setup.ws.owner.id, slug: 'versioned' });
    const installed = await setup.ws.client.post(`/apps/${app.id}/installs`, { version: 1 });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const id: string = installed.body.install.id;
    stack.clock.advance(5_000);
    expect((await setup.ws.client.delete(`/installs/${id}`)).status).toBe(204);
    const events = await eventsOf(stack, id);
    expect(events.map((e) => e.type)).toEqual(['app.installed', 'app.uninstalled']);
    const { rows } = await stack.db.query<{ created_at: Date; updated_at: Date }>('select created_at, updated_at from installs where id = $1', [id]);
    expect(events.map((e) => e.payload.install.version)).toEqual([rows[0]!.created_at.getTime(), rows[0]!.updated_at.getTime()]);
    for (const e of events) expect(eventDataSchemas[e.type as 'app.installed'].safeParse(e.payload).success).toBe(true);

    const body = JSON.parse(envelopeJson({
      id: events[1]!.id, type: 'app.uninstalled', createdAt: new Date(), app: { id: app.id, slug: app.slug, version: 1 },
      install: { id, workspaceId, kind: 'workspace' }, installToken: null, actor: null, data: events[1]!.payload,
    }));
    expect(body.data).toEqual(events[1]!.payload);
  });
});
