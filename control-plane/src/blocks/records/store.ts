/**
 * @module blocks/records/store
 * SQL of blocks (010_blocks.sql): inserting a block with its message, reading one with what a
 * delivery about it needs (install and app columns, deliveries/pipeline/install-target.ts), paging an install's blocks
 * by state, and the state writes of the app API (single and bulk).
 */
import type { Db } from '../../core/db/db.ts';
import type { MessagePlace } from '../../messaging/app-messages/targets.ts';
import { TARGET_COLUMNS, type TargetColumns } from '../../deliveries/pipeline/install-target.ts';

export interface Pending {
  ref: string;
  invocationId: string;
  memberId: string;
  since: string;
  until: string;
}

export interface InlineError {
  /** The member it is shown to; null: everyone (a failed render). */
  memberId: string | null;
  message: string;
  at: string;
}

export interface OpenLink {
  memberId: string;
  url: string;
  host: string;
  at: string;
}

export type Json = Record<string, unknown>;
export type ActionTable = Record<string, { name: string; args?: Json }>;

export interface BlockRow {
  id: string;
  workspace_id: string;
  app_id: string;
  install_id: string;
  type: string;
  circle_id: string | null;
  message_id: string | null;
  /** From the block's message (chat messages get filed into conversations). */
  conversation_id: string | null;
  props: Json;
  state: Json;
  version: number;
  revision: number;
  tree: Json;
  actions: ActionTable;
  tree_hash: string;
  summary: string;
  rendered_at: Date;
  render_due_at: Date | null;
  final: boolean;
  final_summary: string | null;
  final_at: Date | null;
  pending: Pending | null;
  error: InlineError | null;
  open_link: OpenLink | null;
  created_at: Date;
  updated_at: Date;
}

export type BlockWithTarget = BlockRow & TargetColumns;

export const BLOCK_COLUMNS = `b.id, b.workspace_id, b.app_id, b.install_id, b.type, b.circle_id, b.message_id, m.conversation_id, b.props, b.state,
  b.version, b.revision, b.tree, b.actions, b.tree_hash, b.summary, b.rendered_at, b.render_due_at, b.final, b.final_summary, b.final_at,
  b.pending, b.error, b.open_link, b.created_at, b.updated_at`;

const FROM = 'from blocks b left join messages m on m.id = b.message_id';

export interface NewBlock {
  id: string;
  workspaceId: string;
  appId: string;
  installId: string;
  type: string;
  circleId: string;
  messageId: string;
  props: Json;
  state: Json;
  tree: Json;
  actions: ActionTable;
  treeHash: string;
  summary: string;
  renderDueAt: Date | null;
  at: Date;
}

/**
 * The block's message: authored by the app (or by the member who inserted it through the
 * interface), its content the summary (for readers that know no blocks).
 */
export async function insertBlockMessage(tx: Db, b: NewBlock, place: MessagePlace, authorMemberId: string | null): Promise<void> {
  const content = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: b.summary }] }] };
  await tx.query(
    `insert into messages (id, workspace_id, circle_id, conversation_id, direct_chat_id, reply_to, author_member_id, content, markdown, created_at, filed_at, block_id, author_app_id)
     values ($1, $2, $3, $4, null, $5, $11, $6::jsonb, null, $7, $8, $9, $10)`,
    [b.messageId, b.workspaceId, place.circleId, place.conversationId, place.replyTo, JSON.stringify(content), b.at, place.filedAt, b.id, b.appId, authorMemberId]);
}

export async function insertBlock(tx: Db, b: NewBlock): Promise<void> {
  await tx.query(
    `insert into blocks (id, workspace_id, app_id, install_id, type, circle_id, message_id, props, state, version, revision, tree, actions,
       tree_hash, summary, rendered_at, render_due_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, 1, 1, $10::jsonb, $11::jsonb, $12, $13, $14, $15, $14, $14)`,
    [b.id, b.workspaceId, b.appId, b.installId, b.type, b.circleId, b.messageId, JSON.stringify(b.props), JSON.stringify(b.state),
      JSON.stringify(b.tree), JSON.stringify(b.actions), b.treeHash, b.summary, b.at, b.renderDueAt]);
}

/** A block with its install and app (what a delivery about it needs), or undefined (also when removed). */
export async function findBlock(db: Db, blockId: string): Promise<BlockWithTarget | undefined> {
  const { rows } = await db.query<BlockWithTarget>(
    `select ${BLOCK_COLUMNS}, ${TARGET_COLUMNS} ${FROM} join installs i on i.id = b.install_id join apps a on a.id = b.app_id
      where b.id = $1 and b.removed_at is null`,
    [blockId]);
  return rows[0];
}

/** Locks the block row until the transaction ends; undefined when absent or removed. */
export async function lockBlock(tx: Db, blockId: string): Promise<BlockRow | undefined> {
  const { rows } = await tx.query<BlockRow>(`select ${BLOCK_COLUMNS} ${FROM} where b.id = $1 and b.removed_at is null for update of b`, [blockId]);
  return rows[0];
}

export interface BlockQuery {
  type?: string | undefined;
  stateMatch?: Json | undefined;
  before: { at: Date; id: string } | null;
  limit: number;
}

/** An install's blocks, newest first; `stateMatch` is jsonb containment (top-level scalar keys). */
export async function queryBlocks(db: Db, installId: string, q: BlockQuery): Promise<BlockRow[]> {
  const { rows } = await db.query<BlockRow>(
    `select ${BLOCK_COLUMNS} ${FROM}
      where b.install_id = $1 and b.removed_at is null and ($2::text is null or b.type = $2) and ($3::jsonb is null or b.state @> $3::jsonb)
        and ($4::timestamptz is null or (b.created_at, b.id) < ($4, $5))
      order by b.created_at desc, b.id desc limit $6`,
    [installId, q.type ?? null, q.stateMatch === undefined ? null : JSON.stringify(q.stateMatch), q.before?.at ?? null, q.before?.id ?? '', q.limit + 1]);
  return rows;
}

/**
 * A new state from the app API: the version moves on, a render becomes due now (the tree shows the
 * old state), and a pending deferral ends when `clearPending` (the interaction token's update).
 */
export async function writeState(tx: Db, blockId: string, state: Json, at: Date, clearPending: boolean): Promise<BlockRow> {
  const { rows } = await tx.query<BlockRow>(
    `with b as (
       update blocks set state = $2::jsonb, version = version + 1, render_due_at = $3, updated_at = $3,
         pending = case when $4 then null else pending end,
         error = case when $4 then null else error end
       where id = $1 returning *
     )
     select ${BLOCK_COLUMNS} from b left join messages m on m.id = b.message_id`,
    [blockId, JSON.stringify(state), at, clearPending]);
  if (rows[0] === undefined) throw new Error(`Block ${blockId} vanished while locked`);
  return rows[0];
}

/** Non-final blocks of a type whose state contains `match`, locked for a bulk update. */
export async function lockMatching(tx: Db, installId: string, type: string, match: Json): Promise<Array<{ id: string; state: Json }>> {
  const { rows } = await tx.query<{ id: string; state: Json }>(
    `select id, state from blocks where install_id = $1 and type = $2 and not final and removed_at is null and state @> $3::jsonb order by id for update`,
    [installId, type, JSON.stringify(match)]);
  return rows;
}

/** The bulk update: `patch` shallow-merged into each block's state (jsonb `||` is exactly a top-level merge). */
export async function mergeStates(tx: Db, ids: readonly string[], patch: Json, at: Date): Promise<number> {
  const { rowCount } = await tx.query(
    `update blocks set state = state || $2::jsonb, version = version + 1, render_due_at = $3, updated_at = $3
      where id = any($1::text[]) and not final and removed_at is null`,
    [[...ids], JSON.stringify(patch), at]);
  return rowCount;
}

/** A render is due now (revalidation); final blocks are never rendered again. */
export async function markRenderDue(db: Db, blockId: string, at: Date): Promise<void> {
  await db.query('update blocks set render_due_at = $2 where id = $1 and not final and removed_at is null', [blockId, at]);
}
