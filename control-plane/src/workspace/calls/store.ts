/**
 * @module workspace/calls/store
 * SQL of calls and their participants.
 */
import type { Db } from '../../core/db/db.ts';

export interface CallRow {
  id: string;
  workspace_id: string;
  circle_id: string;
  title: string;
  recap: string | null;
  recap_at: Date | null;
  version: number;
  started_by: string | null;
  created_at: Date;
}

const COLUMNS = 'id, workspace_id, circle_id, title, recap, recap_at, version, started_by, created_at';

export async function insertCall(db: Db, row: CallRow, participantIds: readonly string[]): Promise<void> {
  await db.query(`insert into calls (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.id, row.workspace_id, row.circle_id, row.title, row.recap, row.recap_at, row.version, row.started_by, row.created_at]);
  await db.query('insert into call_participants (call_id, member_id) select $1, unnest($2::text[]) on conflict do nothing', [row.id, [...participantIds]]);
}

export async function findCall(db: Db, workspaceId: string, id: string): Promise<CallRow | undefined> {
  const { rows } = await db.query<CallRow>(`select ${COLUMNS} from calls where workspace_id = $1 and id = $2`, [workspaceId, id]);
  return rows[0];
}

export async function participants(db: Db, callId: string): Promise<Array<{ member_id: string; name: string }>> {
  const { rows } = await db.query<{ member_id: string; name: string }>(
    'select p.member_id, m.name from call_participants p join members m on m.id = p.member_id where p.call_id = $1 order by m.name, m.id', [callId]);
  return rows;
}

/** Members of the workspace among `ids` (the others do not exist for the caller). */
export async function workspaceMembers(db: Db, workspaceId: string, ids: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('select id from members where workspace_id = $1 and id = any($2::text[])', [workspaceId, [...ids]]);
  return rows.map((r) => r.id);
}

/** Sets the recap and counts the change. */
export async function setRecap(db: Db, id: string, recap: string, at: Date): Promise<CallRow | undefined> {
  const { rows } = await db.query<CallRow>(
    `update calls set recap = $2, recap_at = $3, version = version + 1 where id = $1 returning ${COLUMNS}`, [id, recap, at]);
  return rows[0];
}
