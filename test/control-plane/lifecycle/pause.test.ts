/**
 * Pauses (spec States, "Install deliveries"): a `410` pauses an install's deliveries; three days
 * of continuous failure pause them and mail the app's owner; the developer resumes from the
 * Deliveries page. Also: uninstalled, suspended and hosted installs. Mail goes over real SMTP on
 * loopback when SMTP_URL is set, and stays in the mailbox otherwise.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startSmtpServer, type SmtpServerHandle } from '../../helpers/smtp-server.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliveriesOf, seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface World {
  stack: Stack;
  receiver: Receiver;
  setup: Awaited<ReturnType<typeof seedWorkspace>>;
  appId: string;
  installId: string;
  conversationId: string;
  post(text?: string): Promise<void>;
  drain(): Promise<number>;
}

async function world(env: Record<string, string> = {}, input: { hosting?: 'self' | 'platform' } = {}): Promise<World> {
  const stack = await startStack({ env, deliveries: { random: () => 0 } });
  const receiver = await startReceiver();
  const setup = await seedWorkspace(stack);
  const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url, hosting: input.hosting ?? 'self' });
  const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
  const conversationId = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Pauses' })).body.conversation.id;
  return {
    stack, receiver, setup, appId: app.id, installId, conversationId,
    async post(text = 'hello') {
      expect((await setup.ws.client.post(`/conversations/${conversationId}/messages`, { markdown: text })).status).toBe(201);
    },
    drain: () => stack.controlPlane.deliveries.worker.drain(),
  };
}

const worlds: World[] = [];
const open = async (...args: Parameters<typeof world>) => {
  const w = await world(...args);
  worlds.push(w);
  return w;
};
afterEach(async () => {
  for (const w of worlds.splice(0)) {
    await w.stack.stop();
    await w.receiver.stop();
  }
});

const installState = async (w: World) => (await w.setup.ws.client.get(`/apps/${w.appId}/delivery-installs`)).body.items.find((i: any) => i.installId === w.installId);

describe('410 Gone', () => {
  it('pauses the install at once; new events wait; resuming re-queues everything that waited', async () => {
    const w = await open();
    w.receiver.respond = () => 410;
    await w.post('one');
    expect(await w.drain()).toBe(1);
    expect((await deliveriesOf(w.stack, w.installId)).map((d) => [d.status, d.last_status])).toEqual([['paused', 410]]);
    expect(await installState(w)).toMatchObject({ paused: { reason: 'gone' }, failingSince: null });

    await w.post('two');
    expect((await deliveriesOf(w.stack, w.installId)).map((d) => d.status)).toEqual(['paused', 'paused']);
    w.stack.clock.advance(DAY);
    expect(await w.drain()).toBe(0);
    expect(w.receiver.requests).toHaveLength(1);

    w.receiver.respond = () => 204;
    const resumed = await w.setup.ws.client.post(`/apps/${w.appId}/delivery-installs/resume`, { installId: w.installId });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toEqual({ installId: w.installId, requeued: 2 });
    expect(await w.drain()).toBe(2);
    expect((await deliveriesOf(w.stack, w.installId)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
    expect(await installState(w)).toMatchObject({ paused: null });
    expect((await w.setup.ws.client.post(`/apps/${w.appId}/delivery-installs/resume`, { installId: w.installId })).status).toBe(409);
  });
});

describe('three days of continuous failure', () => {
  it('pauses the install and leaves the mail in the owner\'s mailbox when no SMTP server is configured', async () => {
    const w = await open();
    w.receiver.respond = () => 500;
    const started = w.stack.clock.now();
    // A new failing event every 6 hours, plus every retry that comes due, for three days.
    while (w.stack.clock.now() - started < 3 * DAY) {
      await w.post();
      await w.drain();
      expect(await installState(w)).toMatchObject({ paused: null, failingSince: new Date(started).toISOString() });
      w.stack.clock.advance(6 * HOUR);
    }
    await w.post('the one at three days');
    await w.drain();
    const state = await installState(w);
    expect(state).toMatchObject({ paused: { reason: 'failing', at: new Date(w.stack.clock.now()).toISOString() } });
    const statuses = new Set((await deliveriesOf(w.stack, w.installId)).map((d) => d.status));
    expect(statuses.has('pending')).toBe(false);
    expect(statuses.has('paused')).toBe(true);

    const mailbox = await w.setup.ws.client.get('/mailbox');
    expect(mailbox.body.items).toHaveLength(1);
    expect(mailbox.body.items[0]).toMatchObject({ to: null, status: 'stored', subject: 'Deliveries to App ' + (await w.stack.db.query<{ slug: string }>('select slug from apps where id = $1', [w.appId])).rows[0]!.slug + ' are paused' });
    expect(mailbox.body.items[0].body).toContain(`/console/apps/${w.appId}/deliveries`);
    // Others do not see it.
    expect((await w.setup.other.client.get('/mailbox')).body.items).toEqual([]);
  });

  it('restarts the count after any acknowledged delivery', async () => {
    const w = await open();
    w.receiver.respond = () => 500;
    await w.post();
    await w.drain();
    w.stack.clock.advance(DAY);
    w.receiver.respond = (req) => ((req.envelope.data.post ?? req.envelope.data.reply)?.text === 'works' ? 204 : 500);
    await w.post('works');
    await w.drain();
    expect(await installState(w)).toMatchObject({ failingSince: null });
    w.receiver.respond = () => 500;
    w.stack.clock.advance(2.5 * DAY);
    await w.post('fails again');
    await w.drain();
    w.stack.clock.advance(DAY);
    await w.post('still failing, but not for three days');
    await w.drain();
    expect(await installState(w)).toMatchObject({ paused: null });
  });

  it('e-mails the owner over SMTP when SMTP_URL is configured and the owner has an address', async () => {
    const smtp: SmtpServerHandle = await startSmtpServer();
    try {
      const w = await open({ SMTP_URL: smtp.url, MAIL_FROM: 'Platform <platform@example.test>' });
      expect((await w.setup.ws.client.put('/me/mail-address', { address: 'olive@example.test' })).body).toEqual({ address: 'olive@example.test' });
      w.receiver.respond = () => 500;
      await w.post();
      await w.drain();
      w.stack.clock.advance(3 * DAY);
      await w.post();
      await w.drain();
      await smtp.waitFor((mail) => mail.length === 1);
      expect(smtp.mail[0]).toMatchObject({ from: 'platform@example.test', to: ['olive@example.test'] });
      expect(smtp.mail[0]!.raw).toMatch(/Subject: Deliveries to App .+ are paused/);
      expect(smtp.mail[0]!.raw).toContain(`/console/apps/${w.appId}/deliveries`);
      // Marked sent once the server has confirmed it (just after it received it).
      let mailbox = (await w.setup.ws.client.get('/mailbox')).body.items;
      for (let i = 0; i < 50 && mailbox[0]?.status === 'queued'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        mailbox = (await w.setup.ws.client.get('/mailbox')).body.items;
      }
      expect(mailbox).toEqual([expect.objectContaining({ to: 'olive@example.test', status: 'sent' })]);
    } finally {
      await smtp.stop();
    }
  });
});

describe('installs that receive nothing', () => {
  it('an uninstalled install gets its app.uninstalled (with a revoked token, the uninstaller as actor); what it had pending is cancelled', async () => {
    const w = await open();
    w.receiver.respond = () => 500;
    await w.post('pending when uninstalled');
    await w.drain();
    w.receiver.respond = () => 204;
    expect((await w.setup.ws.client.delete(`/installs/${w.installId}`)).status).toBe(204);
    w.stack.clock.advance(HOUR);
    await w.drain();
    const byType = Object.fromEntries((await deliveriesOf(w.stack, w.installId)).map((d) => [d.type, d]));
    expect(byType['post.created']).toMatchObject({ status: 'cancelled', attempts: 1, last_error: 'The app was uninstalled first' });
    expect(byType['app.uninstalled']).toMatchObject({ status: 'delivered' });
    const envelope = w.receiver.requests.at(-1)!.envelope;
    expect(envelope.type).toBe('app.uninstalled');
    // The spec's envelope carries an install token on every delivery; the install is gone, so it is refused.
    expect(envelope.installToken.token).toMatch(/^platapp_/);
    const call = await w.stack.v0(envelope.installToken.token).get('/whoami');
    expect(call.status).toBe(403);
    expect(call.body).toMatchObject({ _tag: 'PlatformAppInstallRevokedError', path: [] });
    expect(envelope.actor).toEqual({ memberId: w.setup.ws.owner.id, name: w.setup.ws.owner.name });
    expect((await w.setup.ws.client.post(`/apps/${w.appId}/deliveries/${byType['post.created']!.id}/redeliver`)).status).toBe(409);
  });

  it('a suspended install\'s deliveries wait without using attempts, and flow once it is active again', async () => {
    const w = await open();
    await w.post('recorded before the suspension');
    await w.stack.db.query(`update installs set status = 'suspended' where id = $1`, [w.installId]);
    await w.post('while suspended: it receives nothing, so nothing is recorded for it');
    expect(await deliveriesOf(w.stack, w.installId)).toHaveLength(1);
    expect(await w.drain()).toBe(1);
    expect(w.receiver.requests).toHaveLength(0);
    const [held] = await deliveriesOf(w.stack, w.installId);
    expect(held).toMatchObject({ status: 'pending', attempts: 0, last_error: 'The install is suspended' });
    expect(held!.next_attempt_at!.getTime()).toBe(w.stack.clock.now() + HOUR);
    await w.stack.db.query(`update installs set status = 'active' where id = $1`, [w.installId]);
    w.stack.clock.advance(HOUR);
    expect(await w.drain()).toBe(1);
    expect((await deliveriesOf(w.stack, w.installId))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('a hosted app waits and retries while its version has no bundle the runtime could run', async () => {
    const w = await open({}, { hosting: 'platform' });
    await w.post();
    await w.drain();
    expect((await deliveriesOf(w.stack, w.installId))[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'unavailable: version 1 of the app has no uploaded bundle' });
  });
});
