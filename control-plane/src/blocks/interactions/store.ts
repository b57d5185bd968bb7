/**
 * @module blocks/interactions/store
 * SQL of the member's side: a block with what a delivery needs, whether the member sees its
 * circle and its viewer inputs' counts (one round trip for all a click reads before it delivers),
 * and the three ways a click ends (result applied, deferred, failed). Each is one statement
 * that holds only while the block is not final, and answers the row as it now is.
 */
import type { Db } from '../../core/db/db.ts';
import { BLOCK_COLUMNS, type ActionTable, type BlockWithTarget, type InlineError, type Json, type OpenLink, type Pending } from '../records/store.ts';
import { TARGET_COLUMNS } from '../../deliveries/pipeline/install-target.ts';
import type { InputCounts } from './inputs.ts';

export interface MemberBlockRow extends BlockWithTarget {
  /** The member sees the block's circle (public, or they belong to it). */
  visible: boolean;
  read_only: boolean;
  /** Viewer inputs' counts as of this read (blocks/interactions/inputs.ts): every picked value, and the member's own picks. */
  input_tallies: InputCounts['tallies'];
  input_mine: InputCounts['mine'];
}

const JOINS = `left join messages m on m.id = b.message_id join installs i on i.id = b.install_id join apps a on a.id = b.app_id`;

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

/**
 * Applies an action result to `row` (the block as read before the delivery); undefined when the
 * block became final meanwhile (nothing applied). Answers the row as it now is without reading
 * back what the caller sent: the state and the tree come back only when this write did not set
 * them (someone else may have changed them while the app worked), the rest (the install, the app,
 * the props, the message) does not change after insert.
 */
export async function writeActionResult(db: Db, row: BlockWithTarget, w: ResultWrite): Promise<BlockWithTarget | undefined> {
  const { rows } = await db.query<Written>(
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
      where id = $1 and not final
      returning revision, version, tree_hash, summary, rendered_at, render_due_at, final, final_summary, final_at, pending, error, open_link, updated_at,
        case when $2::jsonb is null then state end as state,
        case when $5::text is null then tree end as tree, case when $5::text is null then actions end as actions`,
    [row.id, w.state === null ? null : JSON.stringify(w.state), w.tree?.treeJson ?? null,
      w.tree?.actionsJson ?? null, w.tree?.hash ?? null, w.tree?.summary ?? null, w.at, w.versionBump,
      w.renderDueAt !== 'keep', w.renderDueAt === 'keep' ? null : w.renderDueAt, w.final !== null, w.final?.summary ?? null, w.memberId,
      w.openLink === null ? null : JSON.stringify(w.openLink)]);
  const written = rows[0];
  if (written === undefined) return undefined;
  // A tree equal to the stored one (same hash) is kept as stored: the same content as the one sent.
  return {
    ...row, ...written,
    state: written.state ?? w.state ?? row.state,
    tree: written.tree ?? w.tree?.tree ?? row.tree,
    actions: written.actions ?? w.tree?.actions ?? row.actions,
  };
}

/** A `202`: the clicked control shows pending until the app updates the block (or 15 minutes pass). */
export function writePending(db: Db, blockId: string, pending: Pending, at: Date): Promise<BlockWithTarget | undefined> {
  return returning(db, 'update blocks set pending = $2::jsonb, updated_at = $3 where id = $1 and not final', [blockId, JSON.stringify(pending), at]);
}

/** A failed delivery: the last good tree stays, the member sees an inline error. */
export function writeFailure(db: Db, blockId: string, error: InlineError, at: Date): Promise<BlockWithTarget | undefined> {
  return returning(db, 'update blocks set error = $2::jsonb, updated_at = $3 where id = $1 and not final', [blockId, JSON.stringify(error), at]);
}
