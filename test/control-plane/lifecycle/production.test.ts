/**
 * Every event of the spec's Events table is recorded when its cause happens (docs/events.md), for
 * the installs whose running version subscribes, whose approved scopes allow it and whose reach
 * includes the circle; payloads match sandbox-lib's schemas and carry `version`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, eventDataSchemas, type EventType } from '@platform/sdk';
import { recordEvent } from '../../../control-plane/src/workspace/events/index.ts';
import { recordReconsentRequired } from '../../../control-plane/src/apps/installs/outbox.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { eventsOf, seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const WORKSPACE_EVENTS: EventType[] = [
  'post.created', 'reply.created', 'app.mentioned', 'reference.created', 'reference.removed', 'message.filed',
  'conversation.updated', 'conversation.agreed', 'decision.published', 'decision.updated', 'call.recapReady',
];
const ISSUE = { kind: 'issue', patterns: [{ id: 'issue', pattern: 'https://tracker.example.com/:org/issues/:id' }] };

let stack: Stack;
let setup: Awaited<ReturnType<typeof seedWorkspace>>;
const installs: Record<string, string> = {};
const slugs: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack();
  setup = await seedWorkspace(stack);
  const owner = setup.ws.owner.id;
  const workspaceId = setup.ws.workspace.id;
  const add = async (name: string, input: { events?: EventType[]; scopes?: string[]; invited?: boolean; dev?: boolean }) => {
    const app = await seedApp(stack, { workspaceId, ownerId: input.dev ? setup.other.member.id : owner, slug: `${name}-app`, references: [ISSUE], dev: input.dev ?? false, ...(input.events ? { events: input.events } : {}) });
    installs[name] = await seedInstall(stack, {
      appId: app.id, workspaceId, kind: input.dev ? 'dev' : 'workspace', ...(input.scopes ? { scopes: input.scopes } : {}),
      ...(input.dev ? { installedBy: setup.other.member.id } : {}),
    });
    slugs[name] = app.slug;
    if (input.invited) expect((await setup.ws.client.put(`/circles/${setup.privateCircle}/app-invitations/${app.id}`)).status).toBe(200);
  };
  await add('full', { invited: true });
  await add('noscope', { scopes: [] });
  await add('unsub', { events: ['app.installed'] });
  await add('uninvited', {});
  await add('dev', { dev: true, invited: true });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

/** Causes every workspace event in `circleId` once; answers the ids it made. */
async function causeAll(circleId: string) {
  const c = setup.ws.client;
  const mention = Object.values(slugs).map((s) => `@${s}`).join(' ');
  const conv = (await c.post(`/circles/${circleId}/conversations`, { title: 'Plan' })).body.conversation.id;
  const post = await c.post(`/conversations/${conv}/messages`, { markdown: `Kick-off ${mention} https://tracker.example.com/acme/issues/42` });
  expect(post.status).toBe(201);
  expect((await c.post(`/messages/${post.body.message.id}/replies`, { markdown: 'Agreed' })).status).toBe(201);
  expect((await c.patch(`/messages/${post.body.message.id}`, { markdown: 'Kick-off, link dropped' })).status).toBe(200);
  const circle = (await c.get(`/circles/${circleId}`)).body.circle;
  if (circle.chat) {
    const chat = await c.post(`/circles/${circleId}/messages`, { markdown: 'a chat message' });
    expect((await c.post(`/messages/${chat.body.message.id}/file`, { conversationId: conv })).status).toBe(200);
  }
  expect((await c.patch(`/conversations/${conv}`, { title: 'Plan B' })).status).toBe(200);
  expect((await c.patch(`/conversations/${conv}`, { agreed: true })).status).toBe(200);
  const decision = await c.post(`/circles/${circleId}/decisions`, { title: 'Ship', text: 'We ship Friday', conversationId: conv });
  expect(decision.status).toBe(201);
  expect((await c.patch(`/decisions/${decision.body.decision.id}`, { text: 'We ship Monday' })).status).toBe(200);
  const call = await c.post(`/circles/${circleId}/calls`, { title: 'Standup', participantIds: [setup.other.member.id] });
  expect(call.status).toBe(201);
  expect((await c.put(`/calls/${call.body.call.id}/recap`, { recap: 'We talked.' })).status).toBe(200);
  return { conv, post: post.body.message.id as string };
}

async function typesSince(name: string, before: number): Promise<string[]> {
  return [...new Set((await eventsOf(stack, installs[name]!)).slice(before).map((e) => e.type))].sort();
}

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(installs)) out[name] = (await eventsOf(stack, installs[name]!)).length;
  return out;
}

describe('event production: subscription, scopes and reach', () => {
  it('a public circle with chat: subscribed installs with the read scopes receive all 11 workspace events', async () => {
    const before = await counts();
    await causeAll(setup.publicCircle);
    expect(await typesSince('full', before.full!)).toEqual([...WORKSPACE_EVENTS].sort());
    expect(await typesSince('uninvited', before.uninvited!)).toEqual([...WORKSPACE_EVENTS].sort());
    // Subscribed without the approved read scopes: nothing (every one of these needs a scope).
    expect(await typesSince('noscope', before.noscope!)).toEqual([]);
    // Not subscribed: nothing.
    expect(await typesSince('unsub', before.unsub!)).toEqual([]);
    // A dev install reaches only circles its developer belongs to.
    expect(await typesSince('dev', before.dev!)).toEqual([]);
  });

  it('a dev install receives once its developer joins the circle', async () => {
    expect((await setup.ws.client.put(`/circles/${setup.publicCircle}/members/${setup.other.member.id}`)).status).toBeLessThan(300);
    const before = await counts();
    await causeAll(setup.publicCircle);
    expect(await typesSince('dev', before.dev!)).toEqual([...WORKSPACE_EVENTS].sort());
  });

  it('a private circle reaches only apps invited to it (and dev installs also need their developer inside)', async () => {
    const before = await counts();
    await causeAll(setup.privateCircle);
    const withoutFiling = WORKSPACE_EVENTS.filter((t) => t !== 'message.filed').sort();
    expect(await typesSince('full', before.full!)).toEqual(withoutFiling);
    expect(await typesSince('uninvited', before.uninvited!)).toEqual([]);
    expect(await typesSince('dev', before.dev!)).toEqual([]);
    expect((await setup.ws.client.put(`/circles/${setup.privateCircle}/members/${setup.other.member.id}`)).status).toBeLessThan(300);
    const again = await counts();
    await causeAll(setup.privateCircle);
    expect(await typesSince('dev', again.dev!)).toEqual(withoutFiling);
  });

  it('a connected circle reaches no install', async () => {
    const elsewhere = await stack.createWorkspace({ name: 'Partner' });
    const circle = (await setup.ws.client.post('/circles', { name: 'Shared', visibility: 'public' })).body.circle.id;
    const before = await counts();
    const conv = (await setup.ws.client.post(`/circles/${circle}/conversations`, { title: 'Shared plan' })).body.conversation.id;
    expect((await setup.ws.client.post(`/circles/${circle}/connection`, { workspaceId: elsewhere.workspace.id })).status).toBe(200);
    expect((await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'Hello partners' })).status).toBe(201);
    expect(await counts()).toEqual(before);
  });

  it('app.mentioned goes only to the app named; reference events only for links matching its patterns', async () => {
    const c = setup.ws.client;
    const before = await counts();
    const conv = (await c.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Mentions' })).body.conversation.id;
    await c.post(`/conversations/${conv}/messages`, { markdown: `hey @${slugs.full} see https://tracker.example.com/acme/pulls/1` });
    const full = (await eventsOf(stack, installs.full!)).slice(before.full!);
    const other = (await eventsOf(stack, installs.uninvited!)).slice(before.uninvited!);
    expect(full.map((e) => e.type).sort()).toEqual(['app.mentioned', 'post.created']);
    expect(other.map((e) => e.type)).toEqual(['post.created']);
  });

  it('a later top-level message of a conversation is a reply to its first post; a chat message is a post', async () => {
    const c = setup.ws.client;
    const before = await counts();
    const conv = (await c.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Thread' })).body.conversation.id;
    const first = (await c.post(`/conversations/${conv}/messages`, { markdown: 'first' })).body.message.id;
    await c.post(`/conversations/${conv}/messages`, { markdown: 'second' });
    await c.post(`/circles/${setup.publicCircle}/messages`, { markdown: 'chatting' });
    const events = (await eventsOf(stack, installs.full!)).slice(before.full!);
    expect(events.map((e) => e.type)).toEqual(['post.created', 'reply.created', 'post.created']);
    expect(events[1]!.payload.reply.replyTo).toBe(first);
    expect(events[2]!.payload.post.conversationId).toBeNull();
  });

  it('direct messages cause no event', async () => {
    const before = await counts();
    expect((await setup.ws.client.post('/direct-messages', { to: setup.other.member.id, markdown: `@${slugs.full} https://tracker.example.com/a/issues/1` })).status).toBe(201);
    expect(await counts()).toEqual(before);
  });
});

describe('payloads', () => {
  it('every recorded payload matches its sandbox-lib schema, carries version, and names the actor', async () => {
    const events = await eventsOf(stack, installs.full!);
    const seen = new Set(events.map((e) => e.type));
    for (const type of WORKSPACE_EVENTS) expect(seen.has(type)).toBe(true);
    for (const e of events) {
      const parsed = eventDataSchemas[e.type as EventType].safeParse(e.payload);
      expect(parsed.success, `${e.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      const subject = Object.values(e.payload as Record<string, { version?: unknown }>)[0]!;
      expect(typeof subject.version).toBe('number');
      expect(e.actor).toEqual({ memberId: setup.ws.owner.id, name: setup.ws.owner.name });
    }
  });

  it('versions count changes: an edit and a filing raise the message version, each conversation change the conversation version', async () => {
    const c = setup.ws.client;
    const before = (await eventsOf(stack, installs.full!)).length;
    const conv = (await c.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Versions' })).body.conversation.id;
    const chat = (await c.post(`/circles/${setup.publicCircle}/messages`, { markdown: 'https://tracker.example.com/acme/issues/1' })).body.message.id;
    await c.patch(`/messages/${chat}`, { markdown: 'https://tracker.example.com/acme/issues/2' });
    await c.post(`/messages/${chat}/file`, { conversationId: conv });
    await c.patch(`/conversations/${conv}`, { status: 'In review' });
    await c.patch(`/conversations/${conv}`, { status: 'In review' }); // no change: no event, no version
    await c.patch(`/conversations/${conv}`, { title: 'Versions 2', agreed: true });
    const events = (await eventsOf(stack, installs.full!)).slice(before);
    const summary = events.map((e) => {
      const [key, subject] = Object.entries(e.payload as Record<string, any>)[0]!;
      return [e.type, key === 'reference' ? subject.url.split('/').pop() : '', subject.version];
    });
    expect(summary).toEqual([
      ['post.created', '', 1], ['reference.created', '1', 1],
      ['reference.created', '2', 2], ['reference.removed', '1', 2],
      ['message.filed', '', 3],
      ['conversation.updated', '', 2],
      ['conversation.agreed', '', 3], ['conversation.updated', '', 3],
    ]);
    const agreed = events.find((e) => e.type === 'conversation.agreed')!.payload.conversation;
    expect(agreed).toMatchObject({ id: conv, title: 'Versions 2', status: 'In review', agreed: 'Versions 2', agreement: true });
    const ref = events.find((e) => e.type === 'reference.created')!.payload.reference;
    expect(ref).toMatchObject({ kind: 'issue', externalId: null, patternId: 'issue', params: { org: 'acme', id: '1' }, messageId: chat, conversationId: null });
  });
});

describe('recordEvent (the blocks feature and others)', () => {
  it('records for the given installs only, still subject to subscription and reach, in the caller\'s transaction', async () => {
    const workspaceId = setup.ws.workspace.id;
    const at = new Date(stack.clock.now());
    const block = { id: 'blk_1', type: 'poll', props: {}, state: {}, revision: 0, version: 1, circleId: setup.publicCircle, conversationId: null };
    const ids = await stack.db.transaction((tx) => recordEvent(tx, {
      type: 'block.created', workspaceId, circleId: setup.publicCircle, installIds: [installs.noscope!, installs.unsub!], data: { block }, at,
    }));
    expect(ids).toHaveLength(1); // noscope subscribes (no scope needed); unsub does not
    const rows = (await eventsOf(stack, installs.noscope!)).filter((e) => e.type === 'block.created');
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(eventDataSchemas['block.created'].safeParse(rows[0]!.payload).success).toBe(true);
    // A private circle the app was not invited to: nothing.
    expect(await stack.db.transaction((tx) => recordEvent(tx, { type: 'block.removed', workspaceId, circleId: setup.privateCircle, installIds: [installs.noscope!], data: { block }, at }))).toEqual([]);
    // Rolled back with its transaction.
    await expect(stack.db.transaction(async (tx) => {
      await recordEvent(tx, { type: 'block.removed', workspaceId, circleId: setup.publicCircle, installIds: [installs.noscope!], data: { block }, at });
      throw new Error('the cause failed');
    })).rejects.toThrow('the cause failed');
    expect((await eventsOf(stack, installs.noscope!)).filter((e) => e.type === 'block.removed')).toEqual([]);
  });

  it('install events written by the installs feature become deliveries only for subscribed installs', async () => {
    const workspaceId = setup.ws.workspace.id;
    const at = new Date(stack.clock.now());
    for (const name of ['full', 'unsub', 'noscope']) {
      await stack.db.transaction((tx) => recordReconsentRequired(tx, { id: installs[name]!, workspace_id: workspaceId, kind: 'workspace', version: 1 }, 2, [], at));
    }
    const { rows } = await stack.db.query<{ install_id: string }>(`select install_id from deliveries where type = 'app.reconsentRequired' order by install_id`);
    // `unsub` subscribes to app.installed only.
    expect(rows.map((r) => r.install_id).sort()).toEqual([installs.full!, installs.noscope!].sort());
    expect(EVENT_TYPES).toHaveLength(16);
  });
});
