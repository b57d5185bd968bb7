/**
 * @module blocks/records/store
 * The one store of the blocks table (010_blocks.sql, 011_block_removal.sql): every statement that
 * writes a block lives here, with the reads that feed them. A block is inserted with its message;
 * read with what a delivery about it needs (install and app columns, deliveries/pipeline/install-target.ts),
 * alone or as a member sees it; paged by state for its install; its state written by the app API
 * (single and bulk); a click's end written (result applied, deferred, failed); a render's outcome
 * written; marked removed with its message. The writes after a delivery hold only while the block
 * is still what was delivered about (not final; for renders, the same version and revision), so a
 * slower answer never draws an older state over a newer one.
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
  const { rows } = await tx.query<BlockRow>(`select ${BLOCK_COLUMNS} ${FROM} where b.id = $1 and b.removed_at is null for no key update of b`, [blockId]);
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
    `select id, state from blocks where install_id = $1 and type = $2 and not final and removed_at is null and state @> $3::jsonb order by id for no key update`,
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

// The member's side: a block with what a click needs, and the three ways a click ends.

/** Viewer inputs' counts (blocks/interactions/inputs.ts): every picked value, and the member's own picks. */
export interface InputCounts {
  tallies: Array<[string, string, number]>;
  mine: Array<[string, string]>;
}

export interface MemberBlockRow extends BlockWithTarget {
  /** The member sees the block's circle (public, or they belong to it). */
  visible: boolean;
  read_only: boolean;
  /** Viewer inputs' counts as of this read (blocks/interactions/inputs.ts): every picked value, and the member's own picks. */
  input_tallies: InputCounts['tallies'];
  input_mine: InputCounts['mine'];
}

const MEMBER_JOINS = `left join messages m on m.id = b.message_id join installs i on i.id = b.install_id join apps a on a.id = b.app_id`;

/** The counts `findBlockForMember` read with the row. */
export const countsOf = (row: MemberBlockRow): InputCounts => ({ tallies: row.input_tallies, mine: row.input_mine });

export async function findBlockForMember(db: Db, blockId: string, workspaceId: string, memberId: string): Promise<MemberBlockRow | undefined> {
  const { rows } = await db.query<MemberBlockRow>(
    `select ${BLOCK_COLUMNS}, ${TARGET_COLUMNS},
       coalesce(c.visibility = 'public' or exists (select 1 from circle_members cm where cm.circle_id = c.id and cm.member_id = $3), false) as visible,
       coalesce(c.read_only, false) as read_only,
       (select coalesce(jsonb_agg(jsonb_build_array(t.name, t.value, t.n)), '[]'::jsonb)
          from (select i.name, v.value, count(*)::int as n from block_inputs i cross join lateral jsonb_array_elements_text(i.value) as v(value)
                 where i.block_id = b.id group by i.name, v.value) t) as input_tallies,
       (select coalesce(jsonb_agg(jsonb_build_array(i.name, v.value)), '[]'::jsonb)
          from block_inputs i cross join lateral jsonb_array_elements_text(i.value) as v(value) where i.block_id = b.id and i.member_id = $3) as input_mine
     from blocks b ${MEMBER_JOINS} left join circles c on c.id = b.circle_id
     where b.id = $1 and b.workspace_id = $2 and b.removed_at is null`, [blockId, workspaceId, memberId]);
  return rows[0];
}

/** Runs an update CTE named `b` and answers the changed row with its target columns. */
async function returning(db: Db, update: string, params: unknown[]): Promise<BlockWithTarget | undefined> {
  const { rows } = await db.query<BlockWithTarget>(`with b as (${update} returning *) select ${BLOCK_COLUMNS}, ${TARGET_COLUMNS} from b ${MEMBER_JOINS}`, params);
  return rows[0];
}

export interface ResultWrite {
  state: Json | null;
  /** The JSON of tree and table too, as checked and hashed (deliveries/interactive/tree-check.ts). */
  tree: { tree: Json; actions: ActionTable; hash: string; summary: string; treeJson: string; actionsJson: string } | null;
  /** 1 when state or finality change. */
  versionBump: 0 | 1;
  /** A new `render_due_at`, or `keep` for the stored one. */
  renderDueAt: Date | null | 'keep';
  final: { summary: string | null } | null;
  /** This member's inline error is cleared (their action succeeded); a new tree clears a failed render's too. */
  memberId: string;
  openLink: OpenLink | null;
  at: Date;
}

/** The columns an action result's write answers: everything but what the caller already holds. */
type Written = Pick<BlockWithTarget, 'revision' | 'version' | 'tree_hash' | 'summary' | 'rendered_at' | 'render_due_at' | 'final' | 'final_summary'
  | 'final_at' | 'pending' | 'error' | 'open_link' | 'updated_at'> & { state: Json | null; tree: Json | null; actions: ActionTable | null };

/** One action result to apply: the block as read before the delivery, and what to write. */
export interface ActionResultWrite {
  row: BlockWithTarget;
  write: ResultWrite;
}

const jsonOrNull = (v: unknown) => (v === null || v === undefined ? 'null' : JSON.stringify(v));

/**
 * The group's writes as one JSON array (`jsonb_to_recordset` below): trees and tables go in as the
 * JSON that was checked and hashed, without being serialized again.
 */
function resultsJson(items: readonly ActionResultWrite[]): string {
  return `[${items.map(({ row, write: w }) => `{"id":${JSON.stringify(row.id)},"state":${jsonOrNull(w.state)},`
    + `"tree":${w.tree?.treeJson ?? 'null'},"actions":${w.tree?.actionsJson ?? 'null'},"hash":${jsonOrNull(w.tree?.hash)},"summary":${jsonOrNull(w.tree?.summary)},`
    + `"at":${JSON.stringify(w.at.toISOString())},"bump":${w.versionBump},"set_due":${w.renderDueAt !== 'keep'},`
    + `"due":${w.renderDueAt === 'keep' || w.renderDueAt === null ? 'null' : JSON.stringify(w.renderDueAt.toISOString())},`
    + `"fin":${w.final !== null},"fin_summary":${jsonOrNull(w.final?.summary)},"member":${JSON.stringify(w.memberId)},"open_link":${jsonOrNull(w.openLink)}}`).join(',')}]`;
}

/**
 * Applies action results, one per block, in one statement (blocks/records/result-writer.ts groups
 * concurrent clicks' results into it); answers, in order, each block as it now is, or undefined
 * when it became final meanwhile (nothing applied). Answers the row without reading back what the
 * caller sent: the state and the tree come back only when this write did not set them (someone
 * else may have changed them while the app worked), the rest (the install, the app, the props,
 * the message) does not change after insert. A tree equal to the stored one (same hash) is kept
 * as stored, and the revision with it.
 */
export async function writeActionResults(db: Db, items: readonly ActionResultWrite[]): Promise<Array<BlockWithTarget | undefined>> {
  const { rows } = await db.query<Written & { id: string }>(
    `with w as (
       select * from jsonb_to_recordset($1::jsonb) as w(id text, state jsonb, tree jsonb, actions jsonb, hash text, summary text, at timestamptz, bump int,
         set_due boolean, due timestamptz, fin boolean, fin_summary text, member text, open_link jsonb)
     )
     update blocks b set state = coalesce(w.state, b.state),
        tree = case when w.hash is null or w.hash = b.tree_hash then b.tree else w.tree end,
        actions = case when w.hash is null or w.hash = b.tree_hash then b.actions else w.actions end,
        revision = case when w.hash is null or w.hash = b.tree_hash then b.revision else b.revision + 1 end,
        tree_hash = coalesce(w.hash, b.tree_hash), summary = coalesce(w.summary, b.summary),
        rendered_at = case when w.hash is null then b.rendered_at else w.at end,
        version = b.version + w.bump,
        render_due_at = case when w.set_due then w.due else b.render_due_at end,
        final = b.final or w.fin, final_summary = case when w.fin then w.fin_summary else b.final_summary end,
        final_at = case when w.fin then w.at else b.final_at end,
        error = case when b.error ->> 'memberId' = w.member or (w.hash is not null and b.error ->> 'memberId' is null) then null else b.error end,
        open_link = coalesce(w.open_link, b.open_link),
        updated_at = w.at
      from w where b.id = w.id and not b.final
      returning b.id, b.revision, b.version, b.tree_hash, b.summary, b.rendered_at, b.render_due_at, b.final, b.final_summary, b.final_at,
        b.pending, b.error, b.open_link, b.updated_at,
        case when w.state is null then b.state end as state,
        case when w.hash is null then b.tree end as tree, case when w.hash is null then b.actions end as actions`,
    [resultsJson(items)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map(({ row, write: w }) => {
    const written = byId.get(row.id);
    if (written === undefined) return undefined;
    return {
      ...row, ...written,
      state: written.state ?? w.state ?? row.state,
      tree: written.tree ?? w.tree?.tree ?? row.tree,
      actions: written.actions ?? w.tree?.actions ?? row.actions,
    };
  });
}

/** A `202`: the clicked control shows pending until the app updates the block (or 15 minutes pass). */
export function writePending(db: Db, blockId: string, pending: Pending, at: Date): Promise<BlockWithTarget | undefined> {
  return returning(db, 'update blocks set pending = $2::jsonb, updated_at = $3 where id = $1 and not final', [blockId, JSON.stringify(pending), at]);
}

/** A failed delivery: the last good tree stays, the member sees an inline error. */
export function writeFailure(db: Db, blockId: string, error: InlineError, at: Date): Promise<BlockWithTarget | undefined> {
  return returning(db, 'update blocks set error = $2::jsonb, updated_at = $3 where id = $1 and not final', [blockId, JSON.stringify(error), at]);
}

// Rendering: a render's outcome.

export interface RenderedFields {
  tree: Json;
  actions: ActionTable;
  /** `tree` and `actions` as JSON, as checked and hashed. */
  treeJson: string;
  actionsJson: string;
  hash: string;
  summary: string;
  at: Date;
  /** When the next render is due (`staleAfter` later), or null. */
  nextDueAt: Date | null;
}

/** True when written. The revision moves on only when tree or table differ from the stored ones. */
export async function writeRender(db: Db, blockId: string, seen: { version: number; revision: number }, r: RenderedFields): Promise<boolean> {
  const { rowCount } = await db.query(
    `update blocks set tree = case when tree_hash = $5 then tree else $3::jsonb end,
         actions = case when tree_hash = $5 then actions else $4::jsonb end,
         revision = case when tree_hash = $5 then revision else revision + 1 end,
         tree_hash = $5, summary = $6, rendered_at = $7, render_due_at = $8, updated_at = $7,
         error = case when error ->> 'memberId' is null then null else error end
      where id = $1 and version = $2 and revision = $9 and not final`,
    [blockId, seen.version, r.treeJson, r.actionsJson, r.hash, r.summary, r.at, r.nextDueAt, seen.revision]);
  return rowCount > 0;
}

/** A failed render: the last good tree stays, everyone sees the inline error, another try after `retryAt`. */
export async function writeRenderFailure(db: Db, blockId: string, seen: { version: number; revision: number }, error: InlineError, retryAt: Date): Promise<void> {
  await db.query(
    `update blocks set error = $3::jsonb, render_due_at = $4 where id = $1 and version = $2 and revision = $5 and not final`,
    [blockId, seen.version, JSON.stringify(error), retryAt, seen.revision]);
}

// Removal: a block goes away with its message (blocks/records/removal.ts).

/** Marks the blocks of these messages removed (their version moves on); answers them as they were. */
export async function markRemoved(tx: Db, messageIds: readonly string[], at: Date): Promise<BlockRow[]> {
  const { rows } = await tx.query<BlockRow>(
    `with b as (
       update blocks set removed_at = $2, version = version + 1, render_due_at = null, pending = null, updated_at = $2
        where message_id = any($1::text[]) and removed_at is null returning *
     )
     select ${BLOCK_COLUMNS} from b left join messages m on m.id = b.message_id order by b.id`,
    [[...messageIds], at]);
  return rows;
}
