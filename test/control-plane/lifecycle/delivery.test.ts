/**
 * The outbox loop against a real endpoint on loopback, with the manual clock: the envelope and its
 * headers, acknowledgement, the retry schedule with the same `webhook-id`, dead after 20 attempts,
 * redelivery, and recovery of a batch whose worker died.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES, lifecycleEnvelopeSchemas, verifyDelivery, type EventType } from '@platform/sdk';
import { claimDue } from '../../../control-plane/src/deliveries/outbox/store.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliveriesOf, seedApp, seedInstall, seedWorkspace, type SeededApp } from './fixtures.ts';

let stack: Stack;
let receiver: Receiver;
let setup: Awaited<ReturnType<typeof seedWorkspace>>;
let app: SeededApp;
let installId: string;
let conversationId: string;

const worker = () => stack.controlPlane.deliveries.worker;
const post = async (markdown = 'hello') => {
  const res = await setup.ws.client.post(`/conversations/${conversationId}/messages`, { markdown });
  expect(res.status).toBe(201);
  return res.body.message.id as string;
};
const attemptsOf = async (deliveryId: string) =>
  (await stack.db.query<{ attempt: number; status: number | null; error: string | null; duration_ms: number | null }>(
    'select attempt, status, error, duration_ms from delivery_attempts where delivery_id = $1 order by attempt', [deliveryId])).rows;

beforeAll(async () => {
  stack = await startStack({ deliveries: { random: () => 0.5 } });
  receiver = await startReceiver();
  setup = await seedWorkspace(stack);
  app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url });
  installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id, config: { region: 'eu', apiToken: 's3cret' } });
  conversationId = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Deliveries' })).body.conversation.id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

beforeEach(async () => {
  receiver.respond = () => 204;
  receiver.requests.length = 0;
  // Nothing left over from the previous test.
  await stack.db.query(`update deliveries set status = 'cancelled' where status = 'pending'`);
});

describe('a lifecycle delivery', () => {
  it('is the spec envelope, signed, with a fresh install token and the decrypted config; a 2xx acknowledges it', async () => {
    const messageId = await post('first post');
    expect(await worker().drain()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    const envelope = lifecycleEnvelopeSchemas['post.created'].parse(req.envelope);
    expect(req.headers['platform-delivery']).toBe('lifecycle');
    expect(req.headers['platform-install']).toBe(installId);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['webhook-id']).toBe(envelope.id);
    const verified = await verifyDelivery({ headers: req.headers as Record<string, string>, body: req.body, secret: app.signingSecret, now: stack.clock.now() });
    expect(verified.ok).toBe(true);
    expect(envelope).toMatchObject({
      type: 'post.created', app: { id: app.id, slug: app.slug, version: 1 },
      install: { id: installId, workspaceId: setup.ws.workspace.id, kind: 'workspace', config: { region: 'eu', apiToken: 's3cret' } },
      actor: { memberId: setup.ws.owner.id, name: setup.ws.owner.name }, locale: 'en', timeZone: 'UTC',
      timestamp: new Date(stack.clock.now()).toISOString(),
      data: { post: { id: messageId, text: 'first post', version: 1 } },
    });
    const token = await stack.controlPlane.tokens.verify(envelope.installToken!.token);
    expect(token).toMatchObject({ kind: 'install', claims: { installId, appId: app.id, workspaceId: setup.ws.workspace.id } });
    expect(Date.parse(envelope.installToken!.expiresAt)).toBe(stack.clock.now() + 3_600_000);

    const [delivery] = (await deliveriesOf(stack, installId)).filter((d) => d.id === envelope.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, last_status: 204, last_error: null });
    expect(await attemptsOf(envelope.id)).toEqual([expect.objectContaining({ attempt: 1, status: 204, error: null })]);
  });

  it('every event type the service produces arrives as an envelope its sandbox-lib schema accepts', async () => {
    const c = setup.ws.client;
    await c.post(`/conversations/${conversationId}/messages`, { markdown: `@${app.slug} look` });
    const chat = (await c.post(`/circles/${setup.publicCircle}/messages`, { markdown: 'chat' })).body.message.id;
    await c.post(`/messages/${chat}/replies`, { markdown: 'a reply' });
    await c.post(`/messages/${chat}/file`, { conversationId });
    await c.patch(`/conversations/${conversationId}`, { title: 'Renamed', agreed: true });
    const decision = (await c.post(`/circles/${setup.publicCircle}/decisions`, { title: 'D', text: 'Decided' })).body.decision.id;
    await c.patch(`/decisions/${decision}`, { title: 'D2' });
    const call = (await c.post(`/circles/${setup.publicCircle}/calls`, { title: 'Call' })).body.call.id;
    await c.put(`/calls/${call}/recap`, { recap: 'Recap' });
    // The installs feature's own event, written through its API.
    const other = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url, events: ['app.installed'] });
    expect((await c.post(`/apps/${other.id}/installs`, { version: 1 })).status).toBe(201);
    await worker().drain();
    const types = new Set<string>();
    for (const req of receiver.requests) {
      const type = req.envelope.type as EventType;
      expect(EVENT_TYPES).toContain(type);
      const parsed = lifecycleEnvelopeSchemas[type].safeParse(req.envelope);
      expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      types.add(type);
    }
    expect([...types].sort()).toEqual(['app.installed', 'app.mentioned', 'call.recapReady', 'conversation.agreed', 'conversation.updated', 'decision.published',
      'decision.updated', 'message.filed', 'post.created', 'reply.created']);
    const installed = receiver.requests.find((r) => r.envelope.type === 'app.installed')!.envelope;
    expect(installed.data.install).toMatchObject({ workspaceId: setup.ws.workspace.id, kind: 'workspace', version: stack.clock.now() });
  });
});

describe('retries', () => {
  it('retries a failure after 1 minute with the same webhook-id, signed again', async () => {
    receiver.respond = (req) => (req.attempt === 1 ? 500 : 204);
    await post('retry me');
    expect(await worker().drain()).toBe(1);
    const [first] = receiver.requests;
    const id = first!.headers['webhook-id'] as string;
    const [pending] = (await deliveriesOf(stack, installId)).filter((d) => d.id === id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, last_error: 'The app answered 500' });
    expect(pending!.next_attempt_at!.getTime()).toBe(stack.clock.now() + 60_000);

    stack.clock.advance(59_999);
    expect(await worker().drain()).toBe(0);
    stack.clock.advance(1);
    expect(await worker().drain()).toBe(1);
    const second = receiver.requests[1]!;
    expect(second.headers['webhook-id']).toBe(id);
    expect(second.envelope.id).toBe(id);
    expect(second.envelope.timestamp).toBe(first!.envelope.timestamp);
    expect(Number(second.headers['webhook-timestamp'])).toBe(Number(first!.headers['webhook-timestamp']) + 60);
    // Minted within the pipeline's reuse window (5 minutes): the same token, 59 minutes left.
    expect(second.envelope.installToken).toEqual(first!.envelope.installToken);
    expect((await attemptsOf(id)).map((a) => [a.attempt, a.status, a.error])).toEqual([[1, 500, 'The app answered 500'], [2, 204, null]]);
  });

  it('gives up after 20 attempts: the delivery is dead, kept with every attempt, and can be redelivered', async () => {
    receiver.respond = () => 503;
    await post('always failing');
    let id = '';
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect(await worker().drain()).toBe(1);
      id = receiver.requests.at(-1)!.headers['webhook-id'] as string;
      const [d] = (await deliveriesOf(stack, installId)).filter((x) => x.id === id);
      if (attempt < 20) {
        expect(d).toMatchObject({ status: 'pending', attempts: attempt });
        stack.clock.set(d!.next_attempt_at!.getTime());
      } else {
        expect(d).toMatchObject({ status: 'dead', attempts: 20, next_attempt_at: null });
      }
    }
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
    expect(await attemptsOf(id)).toHaveLength(20);
    stack.clock.advance(7 * 3_600_000);
    expect(await worker().drain()).toBe(0);

    receiver.respond = () => 200;
    const redelivered = await setup.ws.client.post(`/apps/${app.id}/deliveries/${id}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.delivery).toMatchObject({ id, outcome: 'pending' });
    expect(await worker().drain()).toBe(1);
    expect(receiver.requests.at(-1)!.headers['webhook-id']).toBe(id);
    expect((await deliveriesOf(stack, installId)).find((d) => d.id === id)).toMatchObject({ status: 'delivered', attempts: 21 });
  });

  it('treats timeouts, refusals and other answers as failures: a 3xx is not an acknowledgement', async () => {
    receiver.respond = () => 302;
    await post('redirected');
    await worker().drain();
    const id = receiver.requests.at(-1)!.headers['webhook-id'] as string;
    expect((await deliveriesOf(stack, installId)).find((d) => d.id === id)).toMatchObject({ status: 'pending', last_status: 302 });
  });
});

describe('a worker that dies mid-batch', () => {
  it('loses nothing: its rows come due when the lease ends, and the attempt without an outcome is recorded', async () => {
    await post('claimed then abandoned');
    // A worker claims the batch and dies before sending (or mid-send).
    const now = stack.clock.now();
    const claimed = await claimDue(stack.db, { now: new Date(now), limit: 10, lease: 'dead-worker', leaseUntil: new Date(now + stack.config.outbox.leaseMs) });
    expect(claimed).toHaveLength(1);
    expect(await worker().drain()).toBe(0);
    stack.clock.advance(stack.config.outbox.leaseMs);
    expect(await worker().drain()).toBe(1);
    const id = claimed[0]!.id;
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([id]);
    expect((await attemptsOf(id)).map((a) => [a.attempt, a.status, a.duration_ms, a.error])).toEqual([
      [1, null, null, 'No outcome: the worker stopped during the attempt'],
      [2, 204, expect.any(Number), null],
    ]);
  });

  it('an outcome recorded after its lease was taken over changes nothing but the attempt log', async () => {
    receiver.respond = () => 204;
    await post('two workers');
    const now = stack.clock.now();
    const first = await claimDue(stack.db, { now: new Date(now), limit: 10, lease: 'slow-worker', leaseUntil: new Date(now + 1_000) });
    stack.clock.advance(1_000);
    expect(await worker().drain()).toBe(1);
    const id = first[0]!.id;
    const { recordOutcomes } = await import('../../../control-plane/src/deliveries/outbox/store.ts');
    const applied = await recordOutcomes(stack.db, [{
      id, lease: 'slow-worker', status: 'pending', next_at: new Date(now + 60_000), undo: 0, attempt: 1, started_at: new Date(now),
      duration_ms: 15_000, last_status: null, last_error: 'timeout: no answer within 15000 ms', delivered_at: null,
    }]);
    expect(applied.size).toBe(0);
    expect((await deliveriesOf(stack, installId)).find((d) => d.id === id)).toMatchObject({ status: 'delivered' });
    expect((await attemptsOf(id)).map((a) => [a.attempt, a.status, a.error])).toEqual([[1, null, 'timeout: no answer within 15000 ms'], [2, 204, null]]);
  });
});
