/**
 * The Deliveries page API (client API, for the app's developer): list with filters and cursor
 * paging, one delivery with its attempts, and who may see them. Interactive deliveries recorded
 * by the blocks feature are listed with the lifecycle ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInteractiveDelivery } from '../../../control-plane/src/deliveries/interactive/store.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall, seedWorkspace, type SeededApp } from './fixtures.ts';

let stack: Stack;
let receiver: Receiver;
let setup: Awaited<ReturnType<typeof seedWorkspace>>;
let app: SeededApp;
let installId: string;
let secondInstall: string;
const MINUTE = 60_000;

beforeAll(async () => {
  stack = await startStack({ deliveries: { random: () => 0 } });
  receiver = await startReceiver();
  setup = await seedWorkspace(stack);
  app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url });
  installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
  const partner = await stack.createWorkspace({ name: 'Partner' });
  const partnerCircle = (await partner.client.post('/circles', { name: 'Theirs', visibility: 'public' })).body.circle.id;
  secondInstall = await seedInstall(stack, { appId: app.id, workspaceId: partner.workspace.id });
  const c = setup.ws.client;
  const conv = (await c.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Listing' })).body.conversation.id;
  // 0:00 a post (delivered); 1:00 a reply (fails, due again at 2:00); 1:30 a post in the partner
  // workspace (delivered); 2:00 an interactive delivery.
  const first = (await c.post(`/conversations/${conv}/messages`, { markdown: 'one' })).body.message.id;
  await stack.controlPlane.deliveries.worker.drain();
  stack.clock.advance(MINUTE);
  receiver.respond = () => 500;
  await c.post(`/messages/${first}/replies`, { markdown: 'two' });
  await stack.controlPlane.deliveries.worker.drain();
  stack.clock.advance(MINUTE / 2);
  receiver.respond = () => 204;
  const pconv = (await partner.client.post(`/circles/${partnerCircle}/conversations`, { title: 'P' })).body.conversation.id;
  await partner.client.post(`/conversations/${pconv}/messages`, { markdown: 'three' });
  await stack.controlPlane.deliveries.worker.drain();
  // As the blocks feature records interactive deliveries.
  stack.clock.advance(MINUTE / 2);
  await recordInteractiveDelivery(stack.db, {
    id: 'dlv_interactive_1', appId: app.id, installId, type: 'block.action', startedAt: new Date(stack.clock.now()), durationMs: 12.4, status: 200, error: null,
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const list = async (query = '') => {
  const res = await setup.ws.client.get(`/apps/${app.id}/deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body as { items: any[]; nextCursor: string | null };
};

describe('listing deliveries', () => {
  it('lists every delivery of the app across its installs, newest first', async () => {
    const { items, nextCursor } = await list();
    expect(items.map((d) => [d.class, d.type, d.outcome])).toEqual([
      ['interactive', 'block.action', 'delivered'],
      ['lifecycle', 'post.created', 'delivered'],
      ['lifecycle', 'reply.created', 'pending'],
      ['lifecycle', 'post.created', 'delivered'],
    ]);
    expect(nextCursor).toBeNull();
    expect(items[2]).toMatchObject({ attempts: 1, lastStatus: 500, lastError: 'The app answered 500', nextAttemptAt: new Date(Date.UTC(2026, 0, 1) + 2 * MINUTE).toISOString() });
  });

  it.each([
    ['class', '?class=interactive', ['block.action']],
    ['type', '?type=reply.created', ['reply.created']],
    ['outcome (several)', '?outcome=pending,delivered&class=lifecycle', ['post.created', 'reply.created', 'post.created']],
    ['outcome', '?outcome=pending', ['reply.created']],
    ['time window', `?since=${new Date(Date.UTC(2026, 0, 1) + MINUTE).toISOString()}&until=${new Date(Date.UTC(2026, 0, 1) + 2 * MINUTE).toISOString()}`, ['post.created', 'reply.created']],
  ])('filters by %s', async (_, query, types) => {
    expect((await list(query)).items.map((d) => d.type)).toEqual(types);
  });

  it('filters by install', async () => {
    const { items } = await list(`?installId=${secondInstall}`);
    expect(items.map((d) => [d.installId, d.type])).toEqual([[secondInstall, 'post.created']]);
  });

  it('pages with a cursor, without repeats', async () => {
    const first = await list('?limit=3');
    expect(first.items).toHaveLength(3);
    const second = await list(`?limit=3&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.items, ...second.items].map((d) => d.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids).toEqual((await list()).items.map((d) => d.id));
  });

  it('refuses unknown filter values', async () => {
    expect((await setup.ws.client.get(`/apps/${app.id}/deliveries?outcome=lost`)).status).toBe(400);
    expect((await setup.ws.client.get(`/apps/${app.id}/deliveries?cursor=nope`)).status).toBe(400);
  });
});

describe('one delivery', () => {
  it('shows every attempt with the app\'s answer, and the payload', async () => {
    const pending = (await list('?outcome=pending')).items[0];
    const res = await setup.ws.client.get(`/apps/${app.id}/deliveries/${pending.id}`);
    expect(res.status).toBe(200);
    expect(res.body.attempts).toEqual([{
      attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), status: 500, error: 'The app answered 500', response: '', responseTruncated: false,
    }]);
    expect(res.body.data.reply).toMatchObject({ text: 'two', version: 1 });
    expect(res.body.actor).toEqual({ memberId: setup.ws.owner.id, name: setup.ws.owner.name });
    const interactive = await setup.ws.client.get(`/apps/${app.id}/deliveries/dlv_interactive_1`);
    expect(interactive.body).toMatchObject({ data: null, attempts: [{ attempt: 1, status: 200, durationMs: 12, error: null }] });
    expect((await setup.ws.client.post(`/apps/${app.id}/deliveries/dlv_interactive_1/redeliver`)).status).toBe(409);
  });

  it('is the app developer\'s: other members and other workspaces are told the app does not exist', async () => {
    const delivery = (await list()).items[0];
    for (const client of [setup.other.client, (await stack.createWorkspace()).client]) {
      expect((await client.get(`/apps/${app.id}/deliveries`)).body._tag).toBe('PlatformAppNotFoundError');
      expect((await client.get(`/apps/${app.id}/deliveries/${delivery.id}`)).status).toBe(404);
      expect((await client.post(`/apps/${app.id}/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
      expect((await client.post(`/apps/${app.id}/delivery-installs/resume`, { installId })).status).toBe(404);
    }
    expect((await setup.ws.client.get(`/apps/${app.id}/deliveries/dlv_nope`)).status).toBe(404);
  });

  it('lists the delivery state of each install', async () => {
    const res = await setup.ws.client.get(`/apps/${app.id}/delivery-installs`);
    expect(res.body.items).toEqual(expect.arrayContaining([
      expect.objectContaining({ installId, paused: null, failingSince: new Date(Date.UTC(2026, 0, 1) + MINUTE).toISOString() }),
      expect.objectContaining({ installId: secondInstall, paused: null, failingSince: null }),
    ]));
  });
});
