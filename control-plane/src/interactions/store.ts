/**
 * @module interactions/store
 * SQL of the member's side: a block with what a delivery needs and whether the member sees its
 * circle, and the three ways a click ends (result applied, deferred, failed). Each is one statement
 * that holds only while the block is not final, and answers the row as it now is.
 */
import type { Db } from '../db/db.ts';
import { BLOCK_COLUMNS, type ActionTable, type BlockWithTarget, type InlineError, type Json, type OpenLink, type Pending } from '../blocks/store.ts';
import { TARGET_COLUMNS } from '../engine/target.ts';

export interface MemberBlockRow extends BlockWithTarget {
  /** The member sees the block's circle (public, or they belong to it). */
  visible: boolean;
  read_only: boolean;
}

const JOINS = `left join messages m on m.id = b.message_id join installs i on i.id = b.install_id join apps a on a.id = b.app_id`;

export async function findBlockForMember(db: Db, blockId: string, workspaceId: string, memberId: string): Promise<MemberBlockRow | undefined> {
  const { rows } = await db.query<MemberBlockRow>(
    `select ${BLOCK_COLUMNS}, ${TARGET_COLUMNS},
       coalesce(c.visibility = 'public' or exists (select 1 from circle_members cm where cm.circle_id = c.id and cm.member_id = $3), false) as visible,
       coalesce(c.read_only, false) as read_only
     from blocks b ${JOINS} left join circles c on c.id = b.circle_id
     where b.id = $1 and b.workspace_id = $2 and b.removed_at is null`, [blockId, workspaceId, memberId]);
  return rows[0];
}

/** Runs an update CTE named `b` and answers the changed row with its target columns. */
async function returning(db: Db, update: string, params: unknown[]): Promise<BlockWithTarget | undefined> {
  const { rows } = await db.query<BlockWithTarget>(`with b as (${update} returning *) select ${BLOCK_COLUMNS}, ${TARGET_COLUMNS} from b ${JOINS}`, params);
  return rows[0];
}

export interface ResultWrite {
  state: Json | null;
  tree: { tree: Json; actions: ActionTable; hash: string; summary: string } | null;
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

/** Applies an action result; undefined when the block became final meanwhile (nothing applied). */
export function writeActionResult(db: Db, blockId: string, w: ResultWrite): Promise<BlockWithTarget | undefined> {
  return returning(db,
    `update blocks set state = coalesce($2::jsonb, state),
        tree = case when $5::text is null or $5 = tree_hash then tree else $3::jsonb end,
        actions = case when $5::text is null or $5 = tree_hash then actions else $4::jsonb end,
        revision = case when $5::text is null or $5 = tree_hash then revision else revision + 1 end,
        tree_hash = coalesce($5, tree_hash), summary = coalesce($6, summary),
        rendered_at = case when $5::text is null then rendered_at else $7 end,
        version = version + $8,
        render_due_at = case when $9 then $10 else render_due_at end,
        final = final or $11, final_summary = case when $11 then $12 else final_summary end, final_at = case when $11 then $7 else final_at end,
        error = case when error ->> 'memberId' = $13 or ($5::text is not null and error ->> 'memberId' is null) then null else error end,
        open_link = coalesce($14::jsonb, open_link),
        updated_at = $7
      where id = $1 and not final`,
    [blockId, w.state === null ? null : JSON.stringify(w.state), w.tree === null ? null : JSON.stringify(w.tree.tree),
      w.tree === null ? null : JSON.stringify(w.tree.actions), w.tree?.hash ?? null, w.tree?.summary ?? null, w.at, w.versionBump,
      w.renderDueAt !== 'keep', w.renderDueAt === 'keep' ? null : w.renderDueAt, w.final !== null, w.final?.summary ?? null, w.memberId,
      w.openLink === null ? null : JSON.stringify(w.openLink)]);
}

/** A `202`: the clicked control shows pending until the app updates the block (or 15 minutes pass). */
export function writePending(db: Db, blockId: string, pending: Pending, at: Date): Promise<BlockWithTarget | undefined> {
  return returning(db, 'update blocks set pending = $2::jsonb, updated_at = $3 where id = $1 and not final', [blockId, JSON.stringify(pending), at]);
}

/** A failed delivery: the last good tree stays, the member sees an inline error. */
export function writeFailure(db: Db, blockId: string, error: InlineError, at: Date): Promise<BlockWithTarget | undefined> {
  return returning(db, 'update blocks set error = $2::jsonb, updated_at = $3 where id = $1 and not final', [blockId, JSON.stringify(error), at]);
}
