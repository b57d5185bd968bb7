/**
 * @module workspace/conversations/store
 * SQL of conversations.
 */
import type { Cursor } from '../../core/http/common.ts';
import type { Db } from '../../core/db/db.ts';

export interface ConversationRow {
  id: string;
  workspace_id: string;
  circle_id: string;
  title: string;
  status: string | null;
  agreed: boolean | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, workspace_id, circle_id, title, status, agreed, created_by, created_at, updated_at';

export async function insertConversation(db: Db, row: ConversationRow): Promise<void> {
  await db.query(`insert into conversations (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.id, row.workspace_id, row.circle_id, row.title, row.status, row.agreed, row.created_by, row.created_at, row.updated_at]);
}

export async function findConversation(db: Db, workspaceId: string, id: string): Promise<ConversationRow | undefined> {
  const { rows } = await db.query<ConversationRow>(`select ${COLUMNS} from conversations where workspace_id = $1 and id = $2`, [workspaceId, id]);
  return rows[0];
}

export async function listConversations(db: Db, circleId: string, after: Cursor | null, limit: number): Promise<ConversationRow[]> {
  const { rows } = await db.query<ConversationRow>(
    `select ${COLUMNS} from conversations where circle_id = $1 and ($2::timestamptz is null or (created_at, id) > ($2, $3))
     order by created_at, id limit $4`,
    [circleId, after?.at ?? null, after?.id ?? '', limit + 1]);
  return rows;
}

/** Sets the given fields (a field left undefined keeps its value; null clears it). */
export async function updateConversation(
  db: Db, id: string, patch: { title?: string | undefined; status?: string | null | undefined; agreed?: boolean | null | undefined }, at: Date,
): Promise<ConversationRow | undefined> {
  const { rows } = await db.query<ConversationRow>(
    `update conversations set
       title = case when $2 then $3 else title end,
       status = case when $4 then $5 else status end,
       agreed = case when $6 then $7::boolean else agreed end,
       updated_at = $8
     where id = $1 returning ${COLUMNS}`,
    [id, patch.title !== undefined, patch.title ?? null, patch.status !== undefined, patch.status ?? null, patch.agreed !== undefined, patch.agreed ?? null, at]);
  return rows[0];
}

/** The conversation row, locked until the transaction ends (changes of one conversation queue up). */
export async function lockConversation(db: Db, conversationId: string): Promise<ConversationRow | undefined> {
  const { rows } = await db.query<ConversationRow>(
    `select id, workspace_id, circle_id, title, status, agreed, created_by, created_at, updated_at from conversations where id = $1 for no key update`, [conversationId]);
  return rows[0];
}
