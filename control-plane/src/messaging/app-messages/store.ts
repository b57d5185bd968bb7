/**
 * @module messaging/app-messages/store
 * SQL of app messages (migration 012): the app as it appears, messages with the app as author,
 * streams, their thread keys and conversations, and the idempotency keys of stream events.
 */
import type { Db } from '../../core/db/db.ts';

/** How the app looks in a workspace: its name, and its icon (asset id) in the version the install runs. */
export interface AppFace {
  name: string;
  icon: string | null;
}

export async function findAppFace(db: Db, installId: string): Promise<AppFace | undefined> {
  const { rows } = await db.query<AppFace>(
    `select a.name, v.manifest ->> 'icon' as icon
       from installs i join apps a on a.id = i.app_id join app_versions v on v.app_id = i.app_id and v.version = i.version
      where i.id = $1`, [installId]);
  return rows[0];
}

/** What `messages.app_author` keeps: the app's name when posted and a stream event's persona. */
export interface AppAuthorSnapshot {
  name: string;
  persona: { name?: string | undefined; avatarUrl?: string | undefined } | null;
}

export interface NewAppMessage {
  id: string;
  workspaceId: string;
  circleId: string;
  conversationId: string | null;
  /** The thread's root, for thread replies. */
  replyTo: string | null;
  filedAt: Date | null;
  appId: string;
  author: AppAuthorSnapshot;
  content: unknown;
  markdown: string | null;
  at: Date;
}

export async function insertAppMessage(tx: Db, m: NewAppMessage): Promise<void> {
  await tx.query(
    `insert into messages (id, workspace_id, circle_id, conversation_id, direct_chat_id, reply_to, author_member_id, content, markdown, created_at, filed_at,
       author_app_id, app_author)
     values ($1, $2, $3, $4, null, $5, null, $6::jsonb, $7, $8, $9, $10, $11::jsonb)`,
    [m.id, m.workspaceId, m.circleId, m.conversationId, m.replyTo, m.content === null ? null : JSON.stringify(m.content), m.markdown, m.at,
      m.filedAt, m.appId, JSON.stringify(m.author)]);
}

export interface StreamRow {
  id: string;
  circle_id: string;
  app_id: string;
  name: string;
  revoked_at: Date | null;
}

const STREAM_COLUMNS = 'id, circle_id, app_id, name, revoked_at';

export async function findStream(db: Db, circleId: string, appId: string): Promise<StreamRow | undefined> {
  const { rows } = await db.query<StreamRow>(`select ${STREAM_COLUMNS} from app_streams where circle_id = $1 and app_id = $2`, [circleId, appId]);
  return rows[0];
}

/**
 * The app's stream in the circle, created on first use, locked until the transaction ends (events
 * of one stream queue up, so two first events with one `threadKey` start one conversation).
 * Undefined when the circle vanished meanwhile.
 */
export async function lockStream(tx: Db, s: { id: string; workspaceId: string; circleId: string; appId: string; name: string; icon: string | null; at: Date }): Promise<StreamRow | undefined> {
  await tx.query(
    `insert into app_streams (id, workspace_id, circle_id, app_id, name, icon, created_at)
     select $1, $2, $3, $4, $5, $6, $7 where exists (select 1 from circles where id = $3 and workspace_id = $2)
     on conflict (circle_id, app_id) do nothing`,
    [s.id, s.workspaceId, s.circleId, s.appId, s.name, s.icon, s.at]);
  const { rows } = await tx.query<StreamRow>(`select ${STREAM_COLUMNS} from app_streams where circle_id = $1 and app_id = $2 for no key update`, [s.circleId, s.appId]);
  return rows[0];
}

/**
 * The conversation a thread key started, if it still exists; its row is share-locked so that it
 * cannot be deleted under the event about to join it (a deletion already under way is waited for,
 * and then the key starts a new conversation).
 */
export async function findThread(tx: Db, streamId: string, threadKey: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ conversation_id: string }>(
    `select t.conversation_id from app_stream_threads t join conversations c on c.id = t.conversation_id
      where t.stream_id = $1 and t.thread_key = $2 for share of c`, [streamId, threadKey]);
  return rows[0]?.conversation_id;
}

export async function insertStreamConversation(tx: Db, c: { id: string; workspaceId: string; circleId: string; streamId: string; title: string; threadKey: string | null; at: Date }): Promise<void> {
  await tx.query(
    `insert into conversations (id, workspace_id, circle_id, title, status, agreed, created_by, created_at, updated_at, stream_id)
     values ($1, $2, $3, $4, null, null, null, $5, $5, $6)`,
    [c.id, c.workspaceId, c.circleId, c.title, c.at, c.streamId]);
  if (c.threadKey !== null) {
    await tx.query('insert into app_stream_threads (stream_id, thread_key, conversation_id, created_at) values ($1, $2, $3, $4)',
      [c.streamId, c.threadKey, c.id, c.at]);
  }
}

/** The first answer given for `key` since `since`, if any. */
export async function findIdempotentAnswer<T>(db: Db, installId: string, key: string, since: Date): Promise<T | undefined> {
  const { rows } = await db.query<{ response: T }>(
    'select response from app_idempotency_keys where install_id = $1 and key = $2 and created_at > $3', [installId, key, since]);
  return rows[0]?.response;
}

/**
 * Records the answer under `key` unless a live answer is there (one newer than `since`); false
 * then. A concurrent first use of the key waits here for the other transaction and then sees its
 * row. Keys of the install older than the window are swept on the way.
 */
export async function saveIdempotentAnswer(tx: Db, input: { installId: string; key: string; response: unknown; at: Date; since: Date }): Promise<boolean> {
  const { rows } = await tx.query(
    `insert into app_idempotency_keys (install_id, key, response, created_at) values ($1, $2, $3::jsonb, $4)
     on conflict (install_id, key) do update set response = excluded.response, created_at = excluded.created_at
       where app_idempotency_keys.created_at <= $5
     returning 1 as saved`,
    [input.installId, input.key, JSON.stringify(input.response), input.at, input.since]);
  if (rows.length === 0) return false;
  await tx.query('delete from app_idempotency_keys where install_id = $1 and created_at <= $2', [input.installId, input.since]);
  return true;
}

/** A stream as members see it in a circle (the member side: list, revoke). */
export interface StreamListRow {
  id: string;
  circle_id: string;
  app_id: string;
  name: string;
  icon: string | null;
  created_at: Date;
  revoked_at: Date | null;
  revoked_by: string | null;
}

const STREAM_LIST_COLUMNS = 's.id, s.circle_id, s.app_id, s.name, s.icon, s.created_at, s.revoked_at, s.revoked_by';

/** The streams of a circle the member sees (public, or they belong to it); undefined when the circle is not visible. */
export async function listCircleStreams(db: Db, workspaceId: string, circleId: string, memberId: string): Promise<StreamListRow[] | undefined> {
  const { rows: circles } = await db.query<{ id: string }>(
    `select c.id from circles c where c.id = $1 and c.workspace_id = $2
       and (c.visibility = 'public' or exists (select 1 from circle_members cm where cm.circle_id = c.id and cm.member_id = $3))`,
    [circleId, workspaceId, memberId]);
  if (circles.length === 0) return undefined;
  const { rows } = await db.query<StreamListRow>(
    `select ${STREAM_LIST_COLUMNS} from app_streams s where s.circle_id = $1 order by s.created_at, s.id`, [circleId]);
  return rows;
}

/** A stream of the workspace whose circle the member sees. */
export async function findVisibleStream(db: Db, workspaceId: string, streamId: string, memberId: string): Promise<StreamListRow | undefined> {
  const { rows } = await db.query<StreamListRow>(
    `select ${STREAM_LIST_COLUMNS} from app_streams s join circles c on c.id = s.circle_id
      where s.id = $1 and s.workspace_id = $2
        and (c.visibility = 'public' or exists (select 1 from circle_members cm where cm.circle_id = c.id and cm.member_id = $3))`,
    [streamId, workspaceId, memberId]);
  return rows[0];
}

/** Revokes a stream once: a second revocation keeps the first one's time and member. */
export async function revokeStream(db: Db, streamId: string, memberId: string, at: Date): Promise<void> {
  await db.query('update app_streams set revoked_at = $3, revoked_by = $2 where id = $1 and revoked_at is null', [streamId, memberId, at]);
}

/** Lifts a revocation: the app's events are accepted again. Un-revoking an open stream changes nothing. */
export async function unrevokeStream(db: Db, streamId: string): Promise<void> {
  await db.query('update app_streams set revoked_at = null, revoked_by = null where id = $1 and revoked_at is not null', [streamId]);
}
