/**
 * Mail to members: written in the transaction of what it reports, sent after commit over real SMTP
 * on loopback, retried when the server is away, kept in the mailbox either way.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SEND_ATTEMPTS } from '../../../control-plane/src/workspace/mail/service.ts';
import { startSmtpServer } from '../../helpers/smtp-server.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

const stacks: Stack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) await s.stop();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('mail', () => {
  it('is sent over SMTP once its transaction commits, and listed in the member\'s mailbox', async () => {
    const smtp = await startSmtpServer();
    try {
      const stack = await startStack({ env: { SMTP_URL: smtp.url } });
      stacks.push(stack);
      const ws = await stack.createWorkspace();
      await ws.client.put('/me/mail-address', { address: 'olive@example.test' });
      const mail = stack.controlPlane.deliveries.mail;
      await expect(stack.db.transaction(async (tx) => {
        await mail.write(tx, { memberId: ws.owner.id, subject: 'Never sent', body: 'rolled back' });
        throw new Error('the change failed');
      })).rejects.toThrow('the change failed');
      await stack.db.transaction((tx) => mail.write(tx, { memberId: ws.owner.id, subject: 'Hello', body: 'Line one\nLine two' }));
      expect(await mail.flush()).toBe(1);
      expect(smtp.mail).toHaveLength(1);
      expect(smtp.mail[0]!.raw).toContain('Subject: Hello');
      const box = await ws.client.get('/mailbox');
      expect(box.body).toEqual({ items: [expect.objectContaining({ subject: 'Hello', to: 'olive@example.test', status: 'sent', body: 'Line one\nLine two' })], nextCursor: null });
      expect(await mail.flush()).toBe(0);
    } finally {
      await smtp.stop();
    }
  });

  it('waits and retries while the SMTP server is away, then gives up after a few attempts (still in the mailbox)', async () => {
    const stack = await startStack({ env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
    stacks.push(stack);
    const ws = await stack.createWorkspace();
    await ws.client.put('/me/mail-address', { address: 'olive@example.test' });
    const mail = stack.controlPlane.deliveries.mail;
    await stack.db.transaction((tx) => mail.write(tx, { memberId: ws.owner.id, subject: 'Paused', body: '…' }));
    for (let attempt = 1; attempt <= MAX_SEND_ATTEMPTS; attempt++) {
      expect(await mail.flush()).toBe(0);
      const [item] = (await ws.client.get('/mailbox')).body.items;
      expect(item.status).toBe(attempt < MAX_SEND_ATTEMPTS ? 'queued' : 'failed');
      // Not taken again before its retry time.
      expect(await stack.db.query(`select 1 from mail_messages where status = 'queued' and next_attempt_at <= $1`, [new Date(stack.clock.now())]).then((r) => r.rowCount)).toBe(0);
      stack.clock.advance(attempt * 60_000);
    }
  });

  it('without SMTP, or without an address, stays in the mailbox only; pages newest first', async () => {
    const stack = await startStack();
    stacks.push(stack);
    const ws = await stack.createWorkspace();
    const mail = stack.controlPlane.deliveries.mail;
    for (const subject of ['one', 'two', 'three']) {
      await stack.db.transaction((tx) => mail.write(tx, { memberId: ws.owner.id, subject, body: subject }));
      stack.clock.advance(1_000);
    }
    expect(await mail.flush()).toBe(0);
    const first = await ws.client.get('/mailbox?limit=2');
    expect(first.body.items.map((m: any) => [m.subject, m.status, m.to])).toEqual([['three', 'stored', null], ['two', 'stored', null]]);
    const second = await ws.client.get(`/mailbox?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ subject: 'one' })], nextCursor: null });
    expect((await ws.client.put('/me/mail-address', { address: 'not an address' })).status).toBe(400);
    expect((await ws.client.put('/me/mail-address', { address: null })).body).toEqual({ address: null });
    expect((await ws.client.get('/me/mail-address')).body).toEqual({ address: null });
  });
});
