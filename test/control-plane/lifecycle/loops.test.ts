/**
 * The delivery loops as they run in a control plane: woken when events commit, not by polling
 * (the poll interval is set far beyond the test's bounds). In this process the services wake
 * them; across processes, real Postgres notifies them when the transaction commits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { newEventId } from '../../../control-plane/src/workspace/events/ids.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { describeWithService, postgresState } from '../../helpers/services.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const LOOPS = { OUTBOX_WORKERS: '2', OUTBOX_POLL_MS: '60000' };
const opened: Array<{ stack: Stack; receiver: Receiver }> = [];

async function running(db?: 'postgres') {
  const stack = await startStack({ env: LOOPS, ...(db ? { db } : {}) });
  const receiver = await startReceiver();
  opened.push({ stack, receiver });
  const setup = await seedWorkspace(stack);
  const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url });
  const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
  return { stack, receiver, setup, installId };
}

afterEach(async () => {
  for (const { stack, receiver } of opened.splice(0)) {
    await stack.stop();
    await receiver.stop();
  }
});

describe('delivery loops', () => {
  it('deliver an event as soon as its transaction commits', async () => {
    const { receiver, setup } = await running();
    const conv = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Live' })).body.conversation.id;
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'now' });
    await receiver.waitFor((all) => all.length === 1);
    expect(receiver.requests[0]!.envelope).toMatchObject({ type: 'post.created', data: { post: { text: 'now' } } });
  });

  it('stop after their current pass and leave nothing claimed', async () => {
    const { stack, receiver, setup } = await running();
    receiver.respond = () => 'hang';
    const conv = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Stopping' })).body.conversation.id;
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'in flight when stopping' });
    await receiver.waitFor((all) => all.length === 1);
    // The request hangs until the receiver lets go; stopping waits for the pass, which records a failure.
    const stopped = stack.controlPlane.deliveries.worker.stop();
    await receiver.stop();
    await stopped;
    const { rows } = await stack.db.query<{ status: string; lease: string | null; attempts: number }>('select status, lease, attempts from deliveries');
    expect(rows).toEqual([{ status: 'pending', lease: null, attempts: 1 }]);
  });
});

describeWithService('delivery loops on real Postgres', await postgresState(), () => {
  it('are woken by the database when another process commits an event (no local wake, no poll)', async () => {
    const { stack, receiver, installId } = await running('postgres');
    const id = newEventId();
    // Written the way another replica (or the installs feature) writes it: plain SQL, nothing but the database told.
    await stack.db.query(
      `insert into outbox_events (id, install_id, type, payload, created_at) values ($1, $2, 'app.installed', $3, $4)`,
      [id, installId, JSON.stringify({ install: { id: installId, workspaceId: 'ws', kind: 'workspace', version: stack.clock.now() } }), new Date(stack.clock.now())]);
    await receiver.waitFor((all) => all.some((r) => r.headers['webhook-id'] === id));
  });
});
