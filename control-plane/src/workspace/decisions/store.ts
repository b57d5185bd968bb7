/**
 * @module workspace/decisions/store
 * SQL of decisions.
 */
import type { Cursor } from '../../core/http/common.ts';
import type { Db } from '../../core/db/db.ts';

export interface DecisionRow {
  id: string;
  workspace_id: string;
  circle_id: string;
  conversation_id: string | null;
  title: string;
  body: string;
  version: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, workspace_id, circle_id, conversation_id, title, body, version, created_by, created_at, updated_at';

export async function insertDecision(db: Db, row: DecisionRow): Promise<void> {
  await db.query(`insert into decisions (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [row.id, row.workspace_id, row.circle_id, row.conversation_id, row.title, row.body, row.version, row.created_by, row.created_at, row.updated_at]);
}

export async function findDecision(db: Db, workspaceId: string, id: string): Promise<DecisionRow | undefined> {
  const { rows } = await db.query<DecisionRow>(`select ${COLUMNS} from decisions where workspace_id = $1 and id = $2`, [workspaceId, id]);
  return rows[0];
}

/** Changes title and/or text and counts the change, under the row's lock. */
export async function updateDecision(db: Db, id: string, patch: { title?: string | undefined; text?: string | undefined }, at: Date): Promise<DecisionRow | undefined> {
  const { rows } = await db.query<DecisionRow>(
    `update decisions set title = coalesce($2, title), body = coalesce($3, body), version = version + 1, updated_at = $4
      where id = $1 returning ${COLUMNS}`,
    [id, patch.title ?? null, patch.text ?? null, at]);
  return rows[0];
}

export async function listDecisions(db: Db, circleId: string, after: Cursor | null, limit: number): Promise<DecisionRow[]> {
  const { rows } = await db.query<DecisionRow>(
    `select ${COLUMNS} from decisions where circle_id = $1 and ($2::timestamptz is null or (created_at, id) > ($2, $3))
     order by created_at, id limit $4`,
    [circleId, after?.at ?? null, after?.id ?? '', limit + 1]);
  return rows;
}
