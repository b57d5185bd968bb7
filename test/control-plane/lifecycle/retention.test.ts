/**
 * Bounded history: acknowledged deliveries go after DELIVERY_RETENTION_HOURS with their events and
 * attempts, dead and cancelled ones after SETTLED_DELIVERY_RETENTION_HOURS, interactive records and
 * events nobody subscribed to after DELIVERY_RETENTION_HOURS; waiting deliveries stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInteractiveDelivery } from '../../../control-plane/src/deliveries/interactive/store.ts';
import { recordInstallEvent } from '../../../control-plane/src/apps/installs/outbox.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliveriesOf, seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const DAY = 24 * 3_600_000;
let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startStack({ env: { DELIVERY_RETENTION_HOURS: String(7 * 24), SETTLED_DELIVERY_RETENTION_HOURS: String(30 * 24) } });
  receiver = await startReceiver();
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const count = async (table: string) => (await stack.db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]!.n;

describe('retention', () => {
  it('deletes what is settled and old enough, in batches, and keeps what still waits', async () => {
    const setup = await seedWorkspace(stack);
    const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url, events: ['post.created', 'reply.created'] });
    const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    const conv = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Old' })).body.conversation.id;
    const worker = stack.controlPlane.deliveries.worker;
    // Day 0: a delivered post, a reply that will die, an event nobody subscribes to, an interactive record.
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'delivered' });
    await worker.drain();
    await stack.db.transaction((tx) => recordInstallEvent(tx, { id: installId, workspace_id: setup.ws.workspace.id, kind: 'workspace' }, 'app.installed', new Date(stack.clock.now())));
    await recordInteractiveDelivery(stack.db, { id: 'dlv_int_old', appId: app.id, installId, type: 'block.render', startedAt: new Date(stack.clock.now()), durationMs: 3, status: 200, error: null });
    receiver.respond = () => 500;
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'dies' });
    for (let i = 0; i < 20; i++) {
      await worker.drain();
      const next = (await deliveriesOf(stack, installId)).find((d) => d.status === 'pending')?.next_attempt_at;
      if (next) stack.clock.set(next.getTime());
    }
    // Day 6: a delivery the app acknowledges (ending the failure streak), then one that waits.
    stack.clock.set(Date.UTC(2026, 0, 1) + 6 * DAY);
    receiver.respond = () => 204;
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'recent' });
    await worker.drain();
    receiver.respond = () => 500;
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'waits' });
    await worker.drain();
    const state = async () => (await deliveriesOf(stack, installId)).map((d) => `${d.type} ${d.status}`).sort();
    expect(await state()).toEqual(['block.render delivered', 'post.created delivered', 'reply.created dead', 'reply.created delivered', 'reply.created pending']);
    expect(await count('outbox_events')).toBe(5);

    // 8 days after the start: the delivered post, the interactive record and the unsubscribed event go.
    stack.clock.set(Date.UTC(2026, 0, 1) + 8 * DAY);
    expect(await stack.controlPlane.deliveries.prune()).toEqual({ delivered: 1, settled: 0, interactive: 1, unsubscribed: 1, queueKeys: 0, appLogs: 0, errorGroups: 0 });
    expect(await state()).toEqual(['reply.created dead', 'reply.created delivered', 'reply.created pending']);
    expect(await count('outbox_events')).toBe(3);
    expect(await count(`delivery_attempts where delivery_id = 'dlv_int_old'`)).toBe(0);

    // 31 days: the dead one goes too; the waiting one never does.
    stack.clock.set(Date.UTC(2026, 0, 1) + 31 * DAY);
    expect(await stack.controlPlane.deliveries.prune()).toEqual({ delivered: 1, settled: 1, interactive: 0, unsubscribed: 0, queueKeys: 0, appLogs: 0, errorGroups: 0 });
    expect(await state()).toEqual(['reply.created pending']);
    expect(await count('delivery_attempts')).toBe(1);
  });

  it('counts attempts by outcome in /metrics', async () => {
    const metrics = await (await fetch(stack.metricsUrl)).text();
    expect(metrics).toMatch(/platform_lifecycle_attempts_total\{app="[a-z0-9-]+",outcome="delivered"\} \d+/);
    expect(metrics).toMatch(/platform_lifecycle_attempts_total\{app="[a-z0-9-]+",outcome="dead"\} 1/);
  });
});
