/**
 * @module blocks/rendering/store
 * Writing a render's outcome. Both writes hold only if the block is still what was rendered (same
 * version and revision, not final): a render that lost a race with an action, an update or a
 * newer render is dropped instead of drawing an older state over a newer one.
 */
import type { Db } from '../../core/db/db.ts';
import type { ActionTable, InlineError, Json } from '../records/store.ts';

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
