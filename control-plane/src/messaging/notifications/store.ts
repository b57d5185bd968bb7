/**
 * @module messaging/notifications/store
 * SQL of inbox notifications (the `notifications` table of 010_blocks.sql, ordered by `seq` of
 * 013): what a recipient check reads, the endpoint's insert, and a member's inbox page.
 */
import type { Db } from '../../core/db/db.ts';

export interface RecipientFacts {
  memberWorkspaceId: string | null;
  developerId: string;
}

/** The member's workspace (null when there is no such member) and the app's owner, in one query. */
export async function recipientFacts(db: Db, appId: string, memberId: string): Promise<RecipientFacts> {
  const { rows } = await db.query<{ member_workspace_id: string | null; owner_member_id: string }>(
    'select (select workspace_id from members where id = $2) as member_workspace_id, a.owner_member_id from apps a where a.id = $1',
    [appId, memberId]);
  const row = rows[0];
  // The app of a valid install token exists (installs cascade with their app).
  if (row === undefined) return { memberWorkspaceId: null, developerId: '' };
  return { memberWorkspaceId: row.member_workspace_id, developerId: row.owner_member_id };
}

export interface NewNotification {
  id: string;
  workspaceId: string;
  memberId: string;
  appId: string;
  installId: string;
  text: string;
  url: string | null;
  at: Date;
}

export async function insertNotification(db: Db, n: NewNotification): Promise<void> {
  await db.query(
    `insert into notifications (id, workspace_id, member_id, app_id, install_id, text, url, block_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, null, $8)`,
    [n.id, n.workspaceId, n.memberId, n.appId, n.installId, n.text, n.url, n.at]);
}

export interface NotificationRow {
  id: string;
  text: string;
  url: string | null;
  block_id: string | null;
  app_id: string | null;
  app_name: string | null;
  created_at: Date;
  read_at: Date | null;
  seq: number;
}

const INBOX_COLUMNS = 'n.id, n.text, n.url, n.block_id, n.app_id, a.name as app_name, n.created_at, n.read_at, n.seq';

/** A member's notifications, newest first, after the page key `before`; one more than `limit`. */
export async function listInbox(db: Db, memberId: string, before: { at: Date; seq: number } | null, limit: number): Promise<NotificationRow[]> {
  const { rows } = await db.query<NotificationRow>(
    `select ${INBOX_COLUMNS}
       from notifications n left join apps a on a.id = n.app_id
      where n.member_id = $1 and ($2::timestamptz is null or (n.created_at, n.seq) < ($2, $3::bigint))
      order by n.created_at desc, n.seq desc limit $4`,
    [memberId, before?.at ?? null, before?.seq ?? 0, limit + 1]);
  return rows;
}

export async function unreadCount(db: Db, memberId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from notifications where member_id = $1 and read_at is null', [memberId]);
  return rows[0]?.n ?? 0;
}

/** Marks one of the member's notifications read (a second time keeps the first time); undefined when it is not theirs. */
export async function markRead(db: Db, memberId: string, id: string, at: Date): Promise<NotificationRow | undefined> {
  const { rows } = await db.query<NotificationRow>(
    `with marked as (update notifications set read_at = coalesce(read_at, $3) where id = $1 and member_id = $2 returning *)
     select ${INBOX_COLUMNS} from marked n left join apps a on a.id = n.app_id`,
    [id, memberId, at]);
  return rows[0];
}

/**
 * Marks read the member's notification `upToId` and every older one (by the inbox order) that is
 * unread; answers how many, or undefined when `upToId` is not theirs.
 */
export async function markReadUpTo(db: Db, memberId: string, upToId: string, at: Date): Promise<number | undefined> {
  const { rows } = await db.query<{ found: boolean; marked: number }>(
    `with upto as (select created_at, seq from notifications where id = $1 and member_id = $2),
          marked as (
            update notifications n set read_at = $3 from upto
             where n.member_id = $2 and n.read_at is null and (n.created_at, n.seq) <= (upto.created_at, upto.seq)
            returning 1)
     select exists (select 1 from upto) as found, (select count(*)::int from marked) as marked`,
    [upToId, memberId, at]);
  return rows[0]?.found ? rows[0].marked : undefined;
}
