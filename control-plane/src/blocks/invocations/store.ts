/**
 * @module blocks/invocations/store
 * SQL of command and message-action runs (migration 015), and the reads a run needs: the install
 * with the manifest of the version it runs, messages as context, and the app's messages written
 * in direct chats (which the app-messages feature never writes: apps reach no direct message on
 * their own).
 */
import type { Db } from '../../core/db/db.ts';
import { TARGET_COLUMNS, targetFromRow, type InstallTarget, type TargetColumns } from '../../deliveries/pipeline/install-target.ts';

export type RunKind = 'command' | 'messageAction';
export type RunStatus = 'running' | 'pending' | 'applying' | 'answered' | 'failed';

export interface RunRow {
  id: string;
  workspace_id: string;
  install_id: string;
  app_id: string;
  member_id: string;
  kind: RunKind;
  name: string;
  surface: Record<string, unknown>;
  place: Record<string, unknown>;
  status: RunStatus;
  visibility: 'public' | 'private' | null;
  answer: Record<string, unknown> | null;
  notice: { tone: string; text: string } | null;
  message_ids: string[];
  block_id: string | null;
  error: { message: string } | null;
  created_at: Date;
  deadline_at: Date | null;
  answered_at: Date | null;
  private_until: Date | null;
  shared_at: Date | null;
  dismissed_at: Date | null;
}

export async function insertRun(db: Db, r: { id: string; workspaceId: string; installId: string; appId: string; memberId: string; kind: RunKind; name: string; surface: unknown; place: unknown; at: Date }): Promise<void> {
  await db.query(
    `insert into invocations (id, workspace_id, install_id, app_id, member_id, kind, name, surface, place, status, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, 'running', $10)`,
    [r.id, r.workspaceId, r.installId, r.appId, r.memberId, r.kind, r.name, JSON.stringify(r.surface), JSON.stringify(r.place), r.at]);
}

export async function findRun(db: Db, id: string): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>('select * from invocations where id = $1', [id]);
  return rows[0];
}

export async function markPending(db: Db, id: string, visibility: 'public' | 'private', deadline: Date): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>(
    `update invocations set status = 'pending', visibility = $2, deadline_at = $3 where id = $1 and status = 'running' returning *`, [id, visibility, deadline]);
  return rows[0];
}

/** Claims a pending run for its one answer: only one caller moves it out of `pending`, and only before its deadline. */
export async function claimPending(db: Db, id: string, installId: string, now: Date): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>(
    `update invocations set status = 'applying' where id = $1 and install_id = $2 and status = 'pending' and deadline_at > $3 returning *`, [id, installId, now]);
  return rows[0];
}

export interface RunEnd {
  status: 'answered' | 'failed';
  visibility: 'public' | 'private' | null;
  answer: unknown;
  notice: unknown;
  messageIds: string[];
  blockId: string | null;
  error: { message: string } | null;
  at: Date;
  privateUntil: Date | null;
}

export async function endRun(db: Db, id: string, e: RunEnd): Promise<RunRow> {
  const { rows } = await db.query<RunRow>(
    `update invocations set status = $2, visibility = coalesce($3, visibility), answer = $4::jsonb, notice = $5::jsonb, message_ids = $6::jsonb,
        block_id = $7, error = $8::jsonb, answered_at = $9, private_until = $10
      where id = $1 returning *`,
    [id, e.status, e.visibility, e.answer === null ? null : JSON.stringify(e.answer), e.notice === null ? null : JSON.stringify(e.notice),
      JSON.stringify(e.messageIds), e.blockId, e.error === null ? null : JSON.stringify(e.error), e.at, e.privateUntil]);
  return rows[0]!;
}

export interface MemberInstall {
  target: InstallTarget;
  manifest: { commands?: unknown[]; messageActions?: unknown[] };
}

/** An active install in the workspace, by id or by app (its workspace install first, else its development install). */
/**
 * An active install by id or app (its workspace install first). With `runner`, only installs that
 * member may run: the workspace's, and dev installs of their own apps (as `runnableInstalls` lists).
 */
export async function findMemberInstall(db: Db, workspaceId: string, by: { installId?: string | undefined; appId?: string | undefined }, runner: string | null = null): Promise<MemberInstall | undefined> {
  const { rows } = await db.query<TargetColumns & { manifest: MemberInstall['manifest'] }>(
    `select ${TARGET_COLUMNS}, v.manifest from installs i join apps a on a.id = i.app_id join app_versions v on v.app_id = i.app_id and v.version = i.version
      where i.workspace_id = $1 and i.status = 'active' and (i.id = $2 or ($2::text is null and i.app_id = $3))
        and ($4::text is null or i.kind = 'workspace' or a.owner_member_id = $4)
      order by case i.kind when 'workspace' then 0 else 1 end limit 1`,
    [workspaceId, by.installId ?? null, by.appId ?? null, runner]);
  const row = rows[0];
  return row === undefined ? undefined : { target: targetFromRow(row), manifest: row.manifest };
}

export interface RunnableInstall {
  install_id: string;
  kind: 'workspace' | 'dev';
  app_id: string;
  name: string;
  version: number;
  manifest: MemberInstall['manifest'];
}

/**
 * Active installs whose commands and message actions a member is offered: the workspace's, and
 * the dev installs of the member's own development apps (not other members' work in progress).
 */
export async function runnableInstalls(db: Db, workspaceId: string, memberId: string): Promise<RunnableInstall[]> {
  const { rows } = await db.query<RunnableInstall>(
    `select i.id as install_id, i.kind, i.app_id, a.name, i.version, v.manifest
       from installs i join apps a on a.id = i.app_id join app_versions v on v.app_id = i.app_id and v.version = i.version
      where i.workspace_id = $1 and i.status = 'active' and (i.kind = 'workspace' or a.owner_member_id = $2)
      order by lower(a.name), i.id`,
    [workspaceId, memberId]);
  return rows;
}

/** A message with what its context needs: where it is, its text and author. */
export interface ContextRow {
  id: string;
  circle_id: string | null;
  conversation_id: string | null;
  direct_chat_id: string | null;
  reply_to: string | null;
  content: unknown;
  markdown: string | null;
  created_at: Date;
  author_member_id: string | null;
  author_app_id: string | null;
  author_name: string;
  /** Write order of messages (with `created_at`, their one ordering key). */
  seq: string | number;
}

const CONTEXT_COLUMNS = `m.id, m.circle_id, m.conversation_id, m.direct_chat_id, m.reply_to, m.content, m.markdown, m.created_at,
  m.author_member_id, m.author_app_id, coalesce(mem.name, m.app_author ->> 'name', 'Deleted member') as author_name, m.seq`;
const CONTEXT_FROM = 'from messages m left join members mem on mem.id = m.author_member_id';

export async function findContextMessage(db: Db, workspaceId: string, id: string): Promise<ContextRow | undefined> {
  const { rows } = await db.query<ContextRow>(`select ${CONTEXT_COLUMNS} ${CONTEXT_FROM} where m.id = $1 and m.workspace_id = $2`, [id, workspaceId]);
  return rows[0];
}

/** A thread: its root and its replies, the latest `limit`, oldest first. */
export async function threadOf(db: Db, rootId: string, limit: number): Promise<ContextRow[]> {
  const { rows } = await db.query<ContextRow>(
    `select * from (select ${CONTEXT_COLUMNS} ${CONTEXT_FROM} where m.id = $1 or m.reply_to = $1 order by m.created_at desc, m.seq desc limit $2) t
      order by created_at, seq`, [rootId, limit]);
  return rows;
}

/** Top-level messages of a conversation, the latest `limit`, oldest first. */
export async function conversationMessages(db: Db, conversationId: string, limit: number): Promise<ContextRow[]> {
  const { rows } = await db.query<ContextRow>(
    `select * from (select ${CONTEXT_COLUMNS} ${CONTEXT_FROM} where m.conversation_id = $1 and m.reply_to is null order by m.created_at desc, m.seq desc limit $2) t
      order by created_at, seq`, [conversationId, limit]);
  return rows;
}

/** Top-level messages of the same chat or direct chat around `row`: up to `each` before and after it, oldest first. */
export async function surroundingOf(db: Db, row: ContextRow, each: number): Promise<ContextRow[]> {
  const where = row.direct_chat_id !== null ? 'm.direct_chat_id = $1' : 'm.circle_id = $1 and m.conversation_id is null';
  const { rows } = await db.query<ContextRow>(
    `select * from (
       (select ${CONTEXT_COLUMNS} ${CONTEXT_FROM} where ${where} and m.reply_to is null and (m.created_at, m.seq) < ($2, $3::bigint) order by m.created_at desc, m.seq desc limit $4)
       union all
       (select ${CONTEXT_COLUMNS} ${CONTEXT_FROM} where ${where} and m.reply_to is null and (m.created_at, m.seq) > ($2, $3::bigint) order by m.created_at, m.seq limit $4)
     ) t order by created_at, seq`,
    [row.direct_chat_id ?? row.circle_id, row.created_at, String(row.seq), each]);
  return rows;
}

export async function findConversationRow(db: Db, id: string): Promise<{ id: string; title: string; status: string | null } | undefined> {
  const { rows } = await db.query<{ id: string; title: string; status: string | null }>('select id, title, status from conversations where id = $1', [id]);
  return rows[0];
}

/** The two members of a direct chat. */
export async function directChatMembers(db: Db, id: string): Promise<[string, string] | undefined> {
  const { rows } = await db.query<{ member_low: string; member_high: string }>('select member_low, member_high from direct_chats where id = $1', [id]);
  return rows[0] === undefined ? undefined : [rows[0].member_low, rows[0].member_high];
}

/** A message as the app in a direct chat the invoking member is part of. */
export async function insertDirectAppMessage(db: Db, m: { id: string; workspaceId: string; directChatId: string; appId: string; appName: string; content: unknown; at: Date }): Promise<void> {
  await db.query(
    `insert into messages (id, workspace_id, circle_id, conversation_id, direct_chat_id, reply_to, author_member_id, content, markdown, created_at, filed_at, author_app_id, app_author)
     values ($1, $2, null, null, $3, null, null, $4::jsonb, null, $5, null, $6, $7::jsonb)`,
    [m.id, m.workspaceId, m.directChatId, JSON.stringify(m.content), m.at, m.appId, JSON.stringify({ name: m.appName, persona: null })]);
}

/** Whether the member is in the workspace; answers the name. */
export async function memberName(db: Db, workspaceId: string, memberId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ name: string }>('select name from members where id = $1 and workspace_id = $2', [memberId, workspaceId]);
  return rows[0]?.name;
}

/** The condition of a private answer that can still be shared or dismissed. */
const OPEN_PRIVATE = `status = 'answered' and visibility = 'private' and shared_at is null and dismissed_at is null`;

/** Claims a live private answer of the member for sharing; undefined when it is not one (any more). */
export async function claimShare(db: Db, id: string, memberId: string, now: Date): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>(
    `update invocations set shared_at = $3 where id = $1 and member_id = $2 and ${OPEN_PRIVATE} and private_until > $3 returning *`, [id, memberId, now]);
  return rows[0];
}

/** Gives a claim back: nothing was posted. */
export async function unclaimShare(db: Db, id: string): Promise<void> {
  await db.query('update invocations set shared_at = null where id = $1', [id]);
}

/** A shared answer is a public one now: where it was posted, and no private copy. */
export async function endShare(db: Db, id: string, posted: { messageIds: string[]; blockId: string | null }): Promise<RunRow> {
  const { rows } = await db.query<RunRow>(
    `update invocations set visibility = 'public', answer = null, private_until = null, message_ids = $2::jsonb, block_id = $3 where id = $1 returning *`,
    [id, JSON.stringify(posted.messageIds), posted.blockId]);
  return rows[0]!;
}

/** Dismisses the member's private answer (a second time keeps the first); undefined when it is not one, or was shared. */
export async function dismissPrivate(db: Db, id: string, memberId: string, now: Date): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>(
    `update invocations set dismissed_at = coalesce(dismissed_at, $3), answer = null
      where id = $1 and member_id = $2 and status = 'answered' and visibility = 'private' and shared_at is null returning *`, [id, memberId, now]);
  return rows[0];
}
