/**
 * Log drains over real HTTP (docs/decisions/log-drains.md): a loopback receiver as the drain gets
 * the app's stored lines in order, batched, signed (checked with the SDK's verifyDelivery), with
 * platform credentials masked; a failing receiver gets retries on the backoff, then the drain is
 * disabled and the owner told; the limits hold at the boundary and one past. The shipper is driven
 * with `tick()` and the stack's manual clock (no timers, no sleeps).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '@platform/sdk';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let receiver: Receiver;
let appId: string;

beforeAll(async () => {
  stack = await startStack();
  receiver = await startReceiver({ path: '/drain' });
  ws = await stack.createWorkspace();
  const created = await ws.client.post('/apps', { name: 'Drained', slug: 'drained', hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
}, 60_000);

afterAll(async () => {
  await receiver?.stop();
  await stack?.stop();
});

const v0 = () => stack.v0(ws.apiKey);
const shipper = () => stack.controlPlane.logDrains.shipper;
let lineNo = 0;

/** Stores lines as a runtime node's batch is stored (the ingestion path itself). */
async function store(messages: string[], app = appId): Promise<void> {
  const at = new Date(stack.clock.now()).toISOString();
  await stack.controlPlane.apps.logs.ingest('node-test', messages.map((message) => ({
    at, appId: app, version: 1, requestId: `req-${++lineNo}`, deliveryId: null, installId: null, kind: 'route', level: 'info' as const, status: 'ok' as const, message,
  })));
}

async function addDrain(url = receiver.url): Promise<{ id: string; secret: string }> {
  const res = await v0().post(`/apps/${appId}/log-drains`, { url });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.drain.id, secret: res.body.secret };
}

const messagesOf = (from: number) => receiver.requests.slice(from).flatMap((r) => r.envelope.lines.map((l: { message: string }) => l.message));

describe('log drains', () => {
  it('sends the lines stored after it was added, in order, signed, and each batch once', async () => {
    await store(['before the drain']);
    const { id, secret } = await addDrain();
    expect(secret).toMatch(/^whsec_/);
    const listed = await v0().get(`/apps/${appId}/log-drains`);
    expect(listed.body.items).toMatchObject([{ id, url: receiver.url, state: 'active', failures: 0 }]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(6));

    const from = receiver.requests.length;
    await store(['one', 'two']);
    await store(['three']);
    expect(await shipper().tick()).toBe(1);
    expect(await shipper().tick()).toBe(0);
    const [batch] = receiver.requests.slice(from);
    expect(batch!.envelope).toMatchObject({ type: 'app.logs', drainId: id, appId, test: false });
    expect(messagesOf(from)).toEqual(['one', 'two', 'three']);
    expect(batch!.envelope.lines[0]).not.toHaveProperty('profile');
    const verified = await verifyDelivery({ headers: batch!.headers as Record<string, string>, body: batch!.body, secret, now: stack.clock.now() });
    expect(verified).toMatchObject({ ok: true });
    expect(await verifyDelivery({ headers: batch!.headers as Record<string, string>, body: `${batch!.body} `, secret, now: stack.clock.now() })).toMatchObject({ ok: false });

    await store(['four']);
    expect(await shipper().tick()).toBe(1);
    expect(messagesOf(from)).toEqual(['one', 'two', 'three', 'four']);
    expect((await v0().delete(`/apps/${appId}/log-drains/${id}`)).status).toBe(204);
  });

  it('sends a backlog of 501 lines as a batch of 500 and one of 1, in order', async () => {
    const { id } = await addDrain();
    const from = receiver.requests.length;
    const messages = Array.from({ length: 501 }, (_, i) => `backlog ${i}`);
    await store(messages.slice(0, 300));
    await store(messages.slice(300));
    expect(await shipper().tick()).toBe(2);
    expect(receiver.requests.slice(from).map((r) => r.envelope.lines.length)).toEqual([500, 1]);
    expect(messagesOf(from)).toEqual(messages);
    await v0().delete(`/apps/${appId}/log-drains/${id}`);
  });

  it('sends each of two drains of the app the same lines, each under its own id and secret', async () => {
    const one = await addDrain(`${receiver.url}?to=one`);
    const two = await addDrain(`${receiver.url}?to=two`);
    const from = receiver.requests.length;
    await store(['shared a', 'shared b']);
    expect(await shipper().tick()).toBe(2);
    const got = receiver.requests.slice(from);
    expect(got.map((r) => r.path).sort()).toEqual(['/drain?to=one', '/drain?to=two']);
    for (const [drain, path] of [[one, '/drain?to=one'], [two, '/drain?to=two']] as const) {
      const r = got.find((x) => x.path === path)!;
      expect(r.envelope.drainId).toBe(drain.id);
      expect(r.envelope.lines.map((l: { message: string }) => l.message)).toEqual(['shared a', 'shared b']);
      expect(await verifyDelivery({ headers: r.headers as Record<string, string>, body: r.body, secret: drain.secret, now: stack.clock.now() })).toMatchObject({ ok: true });
    }
    for (const d of [one, two]) await v0().delete(`/apps/${appId}/log-drains/${d.id}`);
  });

  it('masks platform credentials in what it sends (secret env values are masked on the node)', async () => {
    const { id } = await addDrain();
    const from = receiver.requests.length;
    await store([`calling with ${ws.apiKey} and whsec_${'A'.repeat(32)}`]);
    await shipper().tick();
    const body = receiver.requests.slice(from).map((r) => r.body).join('');
    expect(body).toContain('calling with [redacted] and [redacted]');
    expect(body).not.toContain(ws.apiKey);
    await v0().delete(`/apps/${appId}/log-drains/${id}`);
  });

  it('retries a failing receiver on the backoff with the same webhook-id, disables the drain after 24 hours and tells the owner', async () => {
    const { id } = await addDrain();
    receiver.respond = () => 500;
    const from = receiver.requests.length;
    await store(['kept for later']);
    expect(await shipper().tick()).toBe(0);
    expect(await shipper().tick()).toBe(0);
    expect(receiver.requests.length - from).toBe(1);
    stack.clock.advance(1_000);
    await shipper().tick();
    expect(receiver.requests.length - from).toBe(2);
    stack.clock.advance(1_000);
    await shipper().tick();
    expect(receiver.requests.length - from).toBe(2);
    stack.clock.advance(1_000);
    await shipper().tick();
    const tries = receiver.requests.slice(from);
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const failing = (await v0().get(`/apps/${appId}/log-drains`)).body.items.find((d: { id: string }) => d.id === id);
    expect(failing).toMatchObject({ state: 'active', failures: 3, lastStatus: 500, lastError: 'The drain answered 500' });

    // Lines stored while it fails wait behind the batch it retries.
    await store(['stored while failing']);
    for (let elapsed = 0; elapsed < 24 * 60 * 60_000; elapsed += 5 * 60_000) {
      stack.clock.advance(5 * 60_000);
      await shipper().tick();
    }
    const disabled = (await v0().get(`/apps/${appId}/log-drains`)).body.items.find((d: { id: string }) => d.id === id);
    expect(disabled.state).toBe('disabled');
    expect(disabled.disabledReason).toMatch(/failed without a success since/);
    expect(new Set(receiver.requests.slice(from).map((r) => r.headers['webhook-id'])).size).toBe(1);
    const mails = await stack.db.query<{ subject: string; body: string }>("select subject, body from mail_messages where subject like 'Log drain of %'");
    expect(mails.rows).toHaveLength(1);
    expect(mails.rows[0]!.body).toContain(id);
    const told = await v0().get(`/apps/${appId}/logs?limit=5`);
    expect(told.body.items.some((l: { message: string }) => l.message.startsWith(`Log drain ${id} to ${receiver.url} disabled`))).toBe(true);

    // Disabled: nothing more is sent; enabled again, it resumes where it stopped.
    const before = receiver.requests.length;
    stack.clock.advance(60 * 60_000);
    await shipper().tick();
    expect(receiver.requests.length).toBe(before);
    receiver.respond = () => 204;
    expect((await v0().post(`/apps/${appId}/log-drains/${id}/enable`)).body).toMatchObject({ state: 'active', failures: 0 });
    await shipper().tick();
    expect(messagesOf(before)).toEqual(['kept for later', 'stored while failing', expect.stringMatching(/^Log drain .* disabled/)]);
    const metrics = await (await fetch(stack.metricsUrl)).text();
    expect(Number(/platform_log_drain_batches_total\{outcome="failed"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(tries.length);
    expect(metrics).toMatch(/platform_log_drain_disabled_total 1\b/);
    expect(Number(/platform_log_drain_lines_total (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);
    await v0().delete(`/apps/${appId}/log-drains/${id}`);
  });

  it('signs with both secrets for a day after a rotation, and the test batch says it is one', async () => {
    const { id, secret: old } = await addDrain();
    const rotated = await v0().post(`/apps/${appId}/log-drains/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    const from = receiver.requests.length;
    const tested = await v0().post(`/apps/${appId}/log-drains/${id}/test`);
    expect(tested.body).toMatchObject({ delivered: true, status: 204, error: null });
    const [batch] = receiver.requests.slice(from);
    expect(batch!.envelope).toMatchObject({ test: true, lines: [{ message: 'A test line from platform drains test' }] });
    expect(tested.body.batch).toEqual(batch!.envelope);
    expect(String(batch!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [old, fresh]) {
      expect(await verifyDelivery({ headers: batch!.headers as Record<string, string>, body: batch!.body, secret, now: stack.clock.now() })).toMatchObject({ ok: true });
    }
    stack.clock.advance(24 * 60 * 60_000);
    await v0().post(`/apps/${appId}/log-drains/${id}/test`);
    const later = receiver.requests.at(-1)!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(await verifyDelivery({ headers: later.headers as Record<string, string>, body: later.body, secret: old, now: stack.clock.now() })).toMatchObject({ ok: false });
    await v0().delete(`/apps/${appId}/log-drains/${id}`);
  });

  it('takes 3 drains an app and refuses a 4th; refuses URLs an endpoint could not have', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await addDrain(`${receiver.url}?n=${i}`)).id);
    const fourth = await v0().post(`/apps/${appId}/log-drains`, { url: receiver.url });
    expect(fourth.status).toBe(409);
    expect(fourth.body._tag).toBe('PlatformApiConflictError');
    for (const id of ids) expect((await v0().delete(`/apps/${appId}/log-drains/${id}`)).status).toBe(204);

    const refused = async (url: string) => (await v0().post(`/apps/${appId}/log-drains`, { url })).status;
    expect(await refused('http://example.com/drain')).toBe(400);
    expect(await refused('https://user:pw@example.com/drain')).toBe(400);
    expect(await refused('https://10.0.0.7/drain')).toBe(422);
    expect(await refused('https://169.254.169.254/latest')).toBe(422);
    expect((await v0().delete(`/apps/${appId}/log-drains/drn_nope`)).status).toBe(404);
    expect((await stack.v0().get(`/apps/${appId}/log-drains`)).status).toBe(401);
    const other = await stack.createWorkspace();
    expect((await stack.v0(other.apiKey).get(`/apps/${appId}/log-drains`)).status).toBe(404);
  });
});
