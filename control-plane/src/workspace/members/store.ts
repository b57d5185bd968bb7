/**
 * @module workspace/members/store
 * SQL of members.
 */
import type { Db } from '../../core/db/db.ts';
import type { Cursor } from '../../core/http/common.ts';
import type { Role } from '../../core/auth/actor.ts';

export interface MemberRow {
  id: string;
  workspace_id: string;
  name: string;
  role: Role;
  created_at: Date;
}

const COLUMNS = 'id, workspace_id, name, role, created_at';

export async function insertMember(db: Db, row: MemberRow): Promise<void> {
  await db.query('insert into members (id, workspace_id, name, role, created_at) values ($1, $2, $3, $4, $5)',
    [row.id, row.workspace_id, row.name, row.role, row.created_at]);
}

export async function findMember(db: Db, workspaceId: string, memberId: string): Promise<MemberRow | undefined> {
  const { rows } = await db.query<MemberRow>(`select ${COLUMNS} from members where workspace_id = $1 and id = $2`, [workspaceId, memberId]);
  return rows[0];
}

/** The member with the name of their workspace (`GET /me`). */
export async function findMemberInWorkspace(db: Db, workspaceId: string, memberId: string): Promise<(MemberRow & { workspace_name: string }) | undefined> {
  const { rows } = await db.query<MemberRow & { workspace_name: string }>(
    `select m.id, m.workspace_id, m.name, m.role, m.created_at, w.name as workspace_name
       from members m join workspaces w on w.id = m.workspace_id where m.workspace_id = $1 and m.id = $2`, [workspaceId, memberId]);
  return rows[0];
}

export async function listMembers(db: Db, workspaceId: string, after: Cursor | null, limit: number): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `select ${COLUMNS} from members where workspace_id = $1 and ($2::timestamptz is null or (created_at, id) > ($2, $3))
     order by created_at, id limit $4`,
    [workspaceId, after?.at ?? null, after?.id ?? '', limit + 1]);
  return rows;
}
