/**
 * Queues (issue 23; docs/decisions/queues.md) over real HTTP: an install sends messages with its
 * token (`POST /v0/queue/messages`); each comes back as a signed `queue.message` lifecycle
 * delivery to a self-hosted receiver or through a real runtime node to a hosted SDK app. A delayed
 * message waits (the manual clock moves a day), a repeated key is not sent again, a failing
 * message is retried up to the queue's `maxAttempts`, kept as a dead letter on the Deliveries page
 * and sent again from there. The limits are refused at the boundary and one past it.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, verifyDelivery } from '@platform/sdk';
import { SECRET, startRuntime, type TestRuntime } from '../../runtime/support/runtime.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type ApiClient, type Stack } from '../../helpers/stack.ts';
import { deliveriesOf, seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const Q = LIMITS.queues;
const MINUTE = 60_000;
let stack: Stack;
let rt: TestRuntime;
let receiver: Receiver;

beforeAll(async () => {
  rt = await startRuntime();
  stack = await startStack({ env: { RUNTIME_URL: rt.url, RUNTIME_SECRET: SECRET } });
  receiver = await startReceiver();
}, 60_000);

afterAll(async () => {
  await receiver?.stop();
  await stack?.stop();
  await rt?.stop();
});

interface Installed {
  appId: string;
  installId: string;
  signingSecret: string;
  owner: ApiClient;
  /** `/v0` as the app's owner (tooling). */
  tooling: ApiClient;
  api(): Promise<ApiClient>;
}

async function install(input: { hosting?: 'self' | 'platform'; bundleSha256?: string; slug?: string; queue?: { maxAttempts: number } }): Promise<Installed> {
  const setup = await seedWorkspace(stack);
  const app = await seedApp(stack, {
    workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, events: [],
    ...(input.hosting === 'platform' ? { hosting: 'platform' as const, bundleSha256: input.bundleSha256!, slug: input.slug! } : { endpoint: receiver.url }),
    ...(input.queue ? { queue: input.queue } : {}),
  });
  const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
  const token = async () => (await stack.controlPlane.tokens.mint('install', { installId, appId: app.id, workspaceId: setup.ws.workspace.id })).token;
  return { appId: app.id, installId, signingSecret: app.signingSecret, owner: setup.ws.client, tooling: stack.v0(setup.ws.apiKey), api: async () => stack.v0(await token()) };
}

const send = async (on: Installed, messages: unknown[]) => (await on.api()).post('/queue/messages', { messages });
const drain = () => stack.controlPlane.deliveries.worker.drain();
const received = (id: string) => receiver.requests.filter((r) => r.envelope?.id === id);

describe('the queue of a self-hosted app', () => {
  let app: Installed;
  beforeAll(async () => {
    app = await install({ queue: { maxAttempts: 3 } });
  });

  it('delivers a message as a signed queue.message with its body, key and times', async () => {
    const now = new Date(stack.clock.now()).toISOString();
    const res = await send(app, [{ body: { hello: 'queue' } }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [sent] = res.body.messages;
    expect(sent).toEqual({ id: expect.stringMatching(/^evt_/), deduplicated: false, deliverAt: now });
    expect(await drain()).toBe(1);
    const [req] = received(sent.id);
    expect(req!.envelope).toMatchObject({ type: 'queue.message', data: { message: { id: sent.id, body: { hello: 'queue' }, key: null, sentAt: now, deliverAt: now } } });
    expect(req!.headers['webhook-id']).toBe(sent.id);
    expect(await verifyDelivery({ headers: req!.headers as Record<string, string>, body: req!.body, secret: app.signingSecret, now: stack.clock.now() })).toMatchObject({ ok: true });
  });

  it('holds a delayed message until its time (a day later)', async () => {
    const res = await send(app, [{ body: { remind: 'tomorrow' }, delaySeconds: 86_400 }]);
    const [sent] = res.body.messages;
    expect(Date.parse(sent.deliverAt) - stack.clock.now()).toBe(86_400_000);
    expect(await drain()).toBe(0);
    stack.clock.advance(86_400_000 - 1_000);
    expect(await drain()).toBe(0);
    expect(received(sent.id)).toHaveLength(0);
    stack.clock.advance(1_000);
    expect(await drain()).toBe(1);
    expect(received(sent.id)).toHaveLength(1);
  });

  it('sends a key once within the window, in one batch or across requests, and again after it', async () => {
    const first = await send(app, [{ body: { n: 1 }, key: 'digest' }, { body: { n: 2 }, key: 'digest' }]);
    expect(first.body.messages.map((m: { deduplicated: boolean }) => m.deduplicated)).toEqual([false, true]);
    expect(first.body.messages[1].id).toBe(first.body.messages[0].id);
    stack.clock.advance(Q.dedupeWindowMs - 1_000);
    const again = await send(app, [{ body: { n: 3 }, key: 'digest' }]);
    expect(again.body.messages[0]).toMatchObject({ id: first.body.messages[0].id, deduplicated: true });
    await drain();
    expect(received(first.body.messages[0].id)).toHaveLength(1);
    expect(received(first.body.messages[0].id)[0]!.envelope.data.message.body).toEqual({ n: 1 });
    stack.clock.advance(1_000);
    const later = await send(app, [{ body: { n: 4 }, key: 'digest' }]);
    expect(later.body.messages[0]).toMatchObject({ deduplicated: false });
    expect(later.body.messages[0].id).not.toBe(first.body.messages[0].id);
    await drain();
  });

  it('retries a failing message up to maxAttempts with one webhook-id, keeps it as a dead letter, and sends it again', async () => {
    receiver.respond = (req) => (req.envelope?.data?.message?.body?.fail === true ? 500 : 204);
    const [sent] = (await send(app, [{ body: { fail: true } }])).body.messages;
    await drain();
    stack.clock.advance(MINUTE);
    await drain();
    stack.clock.advance(2 * MINUTE);
    await drain();
    stack.clock.advance(6 * 60 * MINUTE);
    expect(await drain()).toBe(0);
    expect(received(sent.id).map((r) => [r.attempt, r.headers['webhook-id']])).toEqual([[1, sent.id], [2, sent.id], [3, sent.id]]);
    expect((await deliveriesOf(stack, app.installId)).find((d) => d.id === sent.id)).toMatchObject({ status: 'dead', attempts: 3 });

    const page = await app.owner.get(`/apps/${app.appId}/deliveries?outcome=dead`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((d: { id: string; type: string }) => [d.id, d.type])).toEqual([[sent.id, 'queue.message']]);

    receiver.respond = () => 204;
    const again = await app.owner.post(`/apps/${app.appId}/deliveries/${sent.id}/redeliver`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await drain()).toBe(1);
    expect(received(sent.id).at(-1)!.headers['webhook-id']).toBe(sent.id);
    expect((await deliveriesOf(stack, app.installId)).find((d) => d.id === sent.id)).toMatchObject({ status: 'delivered' });
  });

  it('shows its author depth, oldest age and dead letters, takes sends as the author, and exports per-app metrics', async () => {
    const held = await send(app, [{ body: { wait: 1 }, delaySeconds: 3_600 }, { body: { wait: 2 }, delaySeconds: 3_600 }]);
    expect(held.status).toBe(200);
    stack.clock.advance(90_000);
    const overview = await app.tooling.get(`/apps/${app.appId}/queue`);
    expect(overview.status, JSON.stringify(overview.body)).toBe(200);
    expect(overview.body.items).toEqual([{ installId: app.installId, installKind: 'workspace', depth: 2, oldestAgeSeconds: 90, deadLetters: 0 }]);
    expect(overview.body.deadLetters).toEqual([]);

    const sent = await app.tooling.post(`/apps/${app.appId}/queue/messages`, { installId: app.installId, messages: [{ body: { from: 'author' } }] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const noDev = await app.tooling.post(`/apps/${app.appId}/queue/messages`, { messages: [{ body: 1 }] });
    expect(noDev.status).toBe(404);
    expect(noDev.body._tag).toBe('PlatformAppInstallNotFoundError');
    const stranger = await stack.createWorkspace();
    expect((await stack.v0(stranger.apiKey).get(`/apps/${app.appId}/queue`)).status).toBe(404);

    const metrics = await (await fetch(stack.metricsUrl)).text();
    const slug = (await stack.db.query<{ slug: string }>('select slug from apps where id = $1', [app.appId])).rows[0]!.slug;
    expect(metrics).toContain(`platform_queue_depth{app="${slug}"} 3`);
    expect(metrics).toMatch(new RegExp(`platform_queue_oldest_age_seconds\\{app="${slug}"\\} 90`));
    expect(metrics).toContain(`platform_queue_dead_letters{app="${slug}"} 0`);
    await drain();
    stack.clock.advance(3_600_000);
    await drain();
  });

  it('refuses sends from an app that defines no queue', async () => {
    const without = await install({});
    const res = await send(without, [{ body: 1 }]);
    expect(res.status).toBe(409);
    expect(res.body._tag).toBe('PlatformAppQueueUndefinedError');
  });
});

describe('queue limits, at the boundary and one past it', () => {
  let app: Installed;
  beforeAll(async () => {
    app = await install({ queue: { maxAttempts: 1 } });
  });
  const refusedWith = (res: { status: number; body: any }, status: number, tag: string) => {
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(status);
    expect(res.body._tag).toBe(tag);
  };

  it('message size, batch size and delay are the request schema\'s', async () => {
    // A JSON string body: its quotes count.
    const fits = 'x'.repeat(Q.messageBytes - 2);
    expect((await send(app, [{ body: fits }])).status).toBe(200);
    refusedWith(await send(app, [{ body: `${fits}x` }]), 400, 'PlatformApiInvalidRequestError');
    stack.clock.advance(1_000);
    expect((await send(app, Array.from({ length: Q.messagesPerBatch }, (_, i) => ({ body: i })))).status).toBe(200);
    refusedWith(await send(app, Array.from({ length: Q.messagesPerBatch + 1 }, (_, i) => ({ body: i }))), 400, 'PlatformApiInvalidRequestError');
    expect((await send(app, [{ body: 1, delaySeconds: Q.maxDelaySeconds }])).status).toBe(200);
    refusedWith(await send(app, [{ body: 1, delaySeconds: Q.maxDelaySeconds + 1 }]), 400, 'PlatformApiInvalidRequestError');
    refusedWith(await send(app, [{ body: 1, key: 'k'.repeat(Q.keyLength + 1) }]), 400, 'PlatformApiInvalidRequestError');
  });

  it('messages per second per install', async () => {
    stack.clock.advance(1_000);
    const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ body: i }));
    for (let sent = 0; sent < Q.messagesPerSecondPerInstall; sent += Q.messagesPerBatch) {
      expect((await send(app, batch(Q.messagesPerBatch))).status).toBe(200);
    }
    const over = await send(app, batch(1));
    refusedWith(over, 429, 'PlatformAppQueueLimitError');
    expect(over.body).toMatchObject({ reason: 'rate', limit: Q.messagesPerSecondPerInstall });
    stack.clock.advance(1_000);
    expect((await send(app, batch(1))).status).toBe(200);
  });

  it('bytes waiting per install', async () => {
    // An install of its own: nothing else waits in its queue.
    const app = await install({ queue: { maxAttempts: 1 } });
    // Held back a week so nothing is delivered while the queue fills.
    const body = 'q'.repeat(Q.messageBytes - 2);
    const perRequest = Math.floor(Q.requestBytes / (Q.messageBytes + 64));
    const total = Q.queuedBytesPerInstall / Q.messageBytes;
    for (let sent = 0; sent < total; sent += perRequest) {
      const n = Math.min(perRequest, total - sent);
      const res = await send(app, Array.from({ length: n }, () => ({ body, delaySeconds: Q.maxDelaySeconds })));
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    }
    const over = await send(app, [{ body: 'x', delaySeconds: Q.maxDelaySeconds }]);
    refusedWith(over, 429, 'PlatformAppQueueLimitError');
    expect(over.body).toMatchObject({ reason: 'queued-bytes', limit: Q.queuedBytesPerInstall });
  }, 120_000);
});

describe('the queue of a hosted app', () => {
  it('runs the SDK queue handler in the runtime node under the lifecycle budget; a failing message is dead after the queue\'s 2 attempts', async () => {
    const built = await build({
      entryPoints: [fileURLToPath(new URL('../../fixtures/runtime/sdk-schedules-app.ts', import.meta.url))],
      bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
      define: { __PLATFORM_BUNDLE__: 'true' },
    });
    const sha = await rt.push(built.outputFiles[0]!.text);
    const app = await install({ hosting: 'platform', bundleSha256: sha, slug: 'hosted-queue', queue: { maxAttempts: 2 } });
    const res = await send(app, [{ body: { fail: false } }, { body: { fail: true } }, { body: { later: true }, delaySeconds: 3 * 86_400 }, { body: { spin: 2_000_000_000 } }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [ok, failing, later, spinning] = res.body.messages.map((m: { id: string }) => m.id);
    await drain();
    stack.clock.advance(MINUTE);
    await drain();
    const state = async () => Object.fromEntries((await deliveriesOf(stack, app.installId)).map((d) => [d.id, [d.status, d.attempts, d.last_status]]));
    const states = await state();
    expect({ ...states, [spinning]: undefined }).toEqual({ [ok]: ['delivered', 1, 204], [failing]: ['dead', 2, 500], [later]: ['pending', 0, null], [spinning]: undefined });
    // The lifecycle budget (50 ms of CPU) ends the spinning handler: never acknowledged, dead after its 2 attempts.
    expect(states[spinning]!.slice(0, 2)).toEqual(['dead', 2]);
    const detail = await stack.db.query<{ error: string | null }>('select error from delivery_attempts where delivery_id = $1 order by attempt', [spinning]);
    expect(detail.rows.map((r) => r.error)).toEqual([expect.stringMatching(/cpu|CPU/), expect.stringMatching(/cpu|CPU/)]);
    stack.clock.advance(3 * 86_400_000);
    await drain();
    expect((await state())[later]).toEqual(['delivered', 1, 204]);
  });
});
