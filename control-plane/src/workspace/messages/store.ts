/**
 * @module workspace/messages/store
 * SQL of messages and direct chats.
 */
import { cursorSeq, type Cursor } from '../../core/http/common.ts';
import type { Db } from '../../core/db/db.ts';

export interface MessageRow {
  id: string;
  workspace_id: string;
  circle_id: string | null;
  conversation_id: string | null;
  direct_chat_id: string | null;
  reply_to: string | null;
  author_member_id: string | null;
  content: unknown;
  markdown: string | null;
  created_at: Date;
  filed_at: Date | null;
}

export interface MessageViewRow extends MessageRow {
  author_name: string | null;
  /** The block this message carries (blocks feature), and the app that posted it when no member did. */
  block_id: string | null;
  author_app_id: string | null;
  author_app_name: string | null;
  /** Messages an app posted through `/v0/replies` or `/v0/streams/events` (messaging/app-messages/store.ts, migration 012). */
  app_author: { name: string; persona: { name?: string; avatarUrl?: string } | null } | null;
  /** The order messages were written in (with `created_at`, the one ordering key of messages). */
  seq: string | number;
  dm_low: string | null;
  dm_high: string | null;
}

const SELECT = `select m.id, m.workspace_id, m.circle_id, m.conversation_id, m.direct_chat_id, m.reply_to, m.author_member_id,
  m.content, m.markdown, m.created_at, m.filed_at, a.name as author_name, d.member_low as dm_low, d.member_high as dm_high,
  m.block_id, m.author_app_id, ap.name as author_app_name, m.app_author, m.seq
  from messages m left join members a on a.id = m.author_member_id left join direct_chats d on d.id = m.direct_chat_id
  left join apps ap on ap.id = m.author_app_id`;

// Messages are ordered by (created_at, seq) everywhere: the order they were written, also within one
// millisecond (docs/decisions/hardening.md). Cursors carry the seq of the last message listed.
const PAGE = (where: string) =>
  `${SELECT} where ${where} and ($2::timestamptz is null or (m.created_at, m.seq) > ($2, $3::bigint)) order by m.created_at, m.seq limit $4`;

export async function insertMessage(db: Db, row: MessageRow): Promise<void> {
  await db.query(
    `insert into messages (id, workspace_id, circle_id, conversation_id, direct_chat_id, reply_to, author_member_id, content, markdown, created_at, filed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11)`,
    [row.id, row.workspace_id, row.circle_id, row.conversation_id, row.direct_chat_id, row.reply_to, row.author_member_id,
      row.content === null ? null : JSON.stringify(row.content), row.markdown, row.created_at, row.filed_at]);
}

export async function findMessage(db: Db, workspaceId: string, id: string): Promise<MessageViewRow | undefined> {
  const { rows } = await db.query<MessageViewRow>(`${SELECT} where m.workspace_id = $1 and m.id = $2`, [workspaceId, id]);
  return rows[0];
}

type Page = (db: Db, key: string, after: Cursor | null, limit: number) => Promise<MessageViewRow[]>;

const pageBy = (where: string): Page => async (db, key, after, limit) =>
  (await db.query<MessageViewRow>(PAGE(where), [key, after?.at ?? null, after === null ? '0' : cursorSeq(after), limit + 1])).rows;

/** Top-level messages of a conversation (replies are read per thread). */
export const listConversationMessages = pageBy('m.conversation_id = $1 and m.reply_to is null');
/** Chat messages of a circle not filed in any conversation. */
export const listChatMessages = pageBy('m.circle_id = $1 and m.conversation_id is null and m.reply_to is null');
export const listReplies = pageBy('m.reply_to = $1');
export const listDirectMessages = pageBy('m.direct_chat_id = $1 and m.reply_to is null');

/** Files an unfiled chat message, and its replies, into a conversation. False when already filed. */
export async function fileMessage(db: Db, id: string, conversationId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'update messages set conversation_id = $2, filed_at = $3 where (id = $1 or reply_to = $1) and conversation_id is null', [id, conversationId, at]);
  return rowCount > 0;
}

/** The direct chat of two members, created on first use. */
export async function directChatId(db: Db, workspaceId: string, a: string, b: string, newId: string, at: Date): Promise<string> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await db.query(
    'insert into direct_chats (id, workspace_id, member_low, member_high, created_at) values ($1, $2, $3, $4, $5) on conflict (member_low, member_high) do nothing',
    [newId, workspaceId, low, high, at]);
  const { rows } = await db.query<{ id: string }>('select id from direct_chats where member_low = $1 and member_high = $2', [low, high]);
  return rows[0]!.id;
}

export async function findDirectChat(db: Db, a: string, b: string): Promise<string | undefined> {
  const [low, high] = a < b ? [a, b] : [b, a];
  const { rows } = await db.query<{ id: string }>('select id from direct_chats where member_low = $1 and member_high = $2', [low, high]);
  return rows[0]?.id;
}

/** A message and, when it is a thread's root, every reply in its thread (what deleting it deletes), replies by time. */
export async function messagesDeletedWith(db: Db, workspaceId: string, id: string): Promise<MessageViewRow[]> {
  const { rows } = await db.query<MessageViewRow>(
    `${SELECT} where m.workspace_id = $1 and (m.id = $2 or m.reply_to = $2) order by (m.id = $2) desc, m.created_at, m.seq`, [workspaceId, id]);
  return rows;
}

/** Deletes a message; its replies go with it (`reply_to … on delete cascade`), a block it carried stays (marked removed). */
export async function deleteMessage(db: Db, id: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from messages where id = $1', [id]);
  return rowCount > 0;
}

/** Replaces the body of a message and counts the change; answers the new version. */
export async function updateMessageBody(db: Db, messageId: string, body: { content: unknown; markdown: string | null }): Promise<number> {
  const { rows } = await db.query<{ version: number }>(
    'update messages set content = $2::jsonb, markdown = $3, version = version + 1 where id = $1 returning version',
    [messageId, body.content === null ? null : JSON.stringify(body.content), body.markdown]);
  return rows[0]!.version;
}
