/**
 * @module workspace/mail/service
 * Mail to members. Writing a mail is a row in the caller's transaction (it commits with the change
 * it reports); sending happens after commit: `flush()` takes due queued mails and sends them over
 * SMTP, at most `MAX_SEND_ATTEMPTS` times each, the n-th retry n minutes after a failure. Without
 * SMTP, or for a member without an address, the mail is `stored`: it stays in the member's
 * mailbox, which the console shows.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import type { Logger } from '../../core/log/logger.ts';
import { claimQueued, insertMail, listMail, mailAddress, markMail, setMailAddress, type MailRow } from './store.ts';
import type { MailTransport } from './transport.ts';

export const MAX_SEND_ATTEMPTS = 5;
const FLUSH_BATCH = 20;
/** How long a sender holds a mail it took (beyond the SMTP timeouts). */
const HOLD_MS = 5 * 60_000;
const RETRY_STEP_MS = 60_000;

export interface MailItem {
  id: string;
  to: string | null;
  subject: string;
  body: string;
  status: MailRow['status'];
  createdAt: string;
  sentAt: string | null;
}

const view = (row: MailRow): MailItem => ({
  id: row.id, to: row.to_address, subject: row.subject, body: row.body, status: row.status,
  createdAt: row.created_at.toISOString(), sentAt: row.sent_at === null ? null : row.sent_at.toISOString(),
});

export type MailService = ReturnType<typeof createMailService>;

export function createMailService(deps: { db: Db; clock: Clock; logger: Logger; transport: MailTransport | null }) {
  const { db } = deps;
  return {
    /** Writes a mail to a member inside `tx`; call `flush()` after the transaction commits. */
    async write(tx: Db, mail: { memberId: string; subject: string; body: string }): Promise<string> {
      const address = await mailAddress(tx, mail.memberId);
      const id = newId('mail');
      await insertMail(tx, {
        id, member_id: mail.memberId, to_address: address ?? null, subject: mail.subject, body: mail.body,
        status: deps.transport !== null && address !== undefined ? 'queued' : 'stored', created_at: new Date(deps.clock.now()),
      });
      return id;
    },

    /** Sends queued mails; answers how many went out. Several processes may flush at once. */
    async flush(): Promise<number> {
      const transport = deps.transport;
      if (transport === null) return 0;
      let sent = 0;
      for (;;) {
        const now = deps.clock.now();
        const batch = await claimQueued(db, { now: new Date(now), holdUntil: new Date(now + HOLD_MS), limit: FLUSH_BATCH });
        let failed = false;
        for (const mail of batch) {
          try {
            await transport.send({ to: mail.to_address!, subject: mail.subject, text: mail.body });
            await markMail(db, mail.id, { status: 'sent', error: null, sentAt: new Date(deps.clock.now()), retryAt: null });
            sent++;
          } catch (err) {
            const message = (err as Error).message.slice(0, 500);
            deps.logger.warn({ err, mailId: mail.id }, 'mail not sent');
            const last = mail.attempts >= MAX_SEND_ATTEMPTS;
            await markMail(db, mail.id, {
              status: last ? 'failed' : 'queued', error: message, sentAt: null, retryAt: last ? null : new Date(deps.clock.now() + mail.attempts * RETRY_STEP_MS),
            });
            failed = true;
          }
        }
        // A failed send stays queued for the next flush rather than being retried in this one.
        if (batch.length < FLUSH_BATCH || failed) return sent;
      }
    },

    async mailbox(memberId: string, page: { limit: number; before: { at: Date; id: string } | null }) {
      const rows = await listMail(db, memberId, page.before, page.limit);
      const more = rows.length > page.limit;
      const shown = more ? rows.slice(0, page.limit) : rows;
      return { items: shown.map(view), last: more ? shown.at(-1)! : null };
    },

    async address(memberId: string): Promise<string | null> {
      return (await mailAddress(db, memberId)) ?? null;
    },

    async setAddress(memberId: string, address: string | null): Promise<void> {
      await setMailAddress(db, memberId, address, new Date(deps.clock.now()));
    },
  };
}
