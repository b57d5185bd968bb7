/**
 * @module workspace/mail/store
 * SQL of mail: members' addresses and every mail written (the mailbox).
 */
import type { Db } from '../../core/db/db.ts';

export type MailStatus = 'queued' | 'sent' | 'stored' | 'failed';

export interface MailRow {
  id: string;
  member_id: string;
  to_address: string | null;
  subject: string;
  body: string;
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

const COLUMNS = 'id, member_id, to_address, subject, body, status, attempts, last_error, created_at, sent_at';

export async function insertMail(db: Db, row: Omit<MailRow, 'attempts' | 'last_error' | 'sent_at'>): Promise<void> {
  await db.query(
    'insert into mail_messages (id, member_id, to_address, subject, body, status, next_attempt_at, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)',
    [row.id, row.member_id, row.to_address, row.subject, row.body, row.status, row.status === 'queued' ? row.created_at : null, row.created_at]);
}

export async function mailAddress(db: Db, memberId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ address: string }>('select address from member_mail_addresses where member_id = $1', [memberId]);
  return rows[0]?.address;
}

export async function setMailAddress(db: Db, memberId: string, address: string | null, at: Date): Promise<void> {
  if (address === null) {
    await db.query('delete from member_mail_addresses where member_id = $1', [memberId]);
    return;
  }
  await db.query(
    `insert into member_mail_addresses (member_id, address, updated_at) values ($1, $2, $3)
     on conflict (member_id) do update set address = excluded.address, updated_at = excluded.updated_at`,
    [memberId, address, at]);
}

/**
 * Takes up to `limit` queued mails that are due, counting the attempt and holding each until
 * `holdUntil` (a sender that dies mid-send leaves it to be taken again then; two senders never
 * take the same mail at once).
 */
export async function claimQueued(db: Db, input: { now: Date; holdUntil: Date; limit: number }): Promise<MailRow[]> {
  const { rows } = await db.query<MailRow>(
    `update mail_messages set attempts = attempts + 1, next_attempt_at = $2
      where id in (select id from mail_messages where status = 'queued' and next_attempt_at <= $1 order by next_attempt_at limit $3 for update skip locked)
      returning ${COLUMNS}`,
    [input.now, input.holdUntil, input.limit]);
  return rows;
}

export async function markMail(db: Db, id: string, change: { status: MailStatus; error: string | null; sentAt: Date | null; retryAt: Date | null }): Promise<void> {
  await db.query('update mail_messages set status = $2, last_error = $3, sent_at = $4, next_attempt_at = $5 where id = $1',
    [id, change.status, change.error, change.sentAt, change.retryAt]);
}

/** A member's mail, newest first (keyset on created_at, id). */
export async function listMail(db: Db, memberId: string, before: { at: Date; id: string } | null, limit: number): Promise<MailRow[]> {
  const { rows } = await db.query<MailRow>(
    `select ${COLUMNS} from mail_messages
      where member_id = $1 and ($2::timestamptz is null or (created_at, id) < ($2, $3))
      order by created_at desc, id desc limit $4`,
    [memberId, before?.at ?? null, before?.id ?? '', limit + 1]);
  return rows;
}
