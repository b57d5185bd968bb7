/**
 * @module workspace/circles/store
 * SQL of circles, circle membership and app invitations.
 */
import type { Cursor } from '../../core/http/common.ts';
import type { Db } from '../../core/db/db.ts';
import type { MemberRow } from '../members/store.ts';

export interface CircleRow {
  id: string;
  workspace_id: string;
  name: string;
  visibility: 'public' | 'private';
  chat: boolean;
  connected: boolean;
  connected_workspace_id: string | null;
  read_only: boolean;
  created_by: string | null;
  created_at: Date;
  /** Whether the member the row was read for belongs to the circle. */
  is_member: boolean;
}

export interface InvitationRow {
  circle_id: string;
  app_id: string;
  invited_by: string | null;
  created_at: Date;
}

const COLUMNS = `c.id, c.workspace_id, c.name, c.visibility, c.chat, c.connected, c.connected_workspace_id, c.read_only,
  c.created_by, c.created_at, exists (select 1 from circle_members cm where cm.circle_id = c.id and cm.member_id = $2) as is_member`;

export async function insertCircle(db: Db, row: Omit<CircleRow, 'is_member' | 'connected' | 'connected_workspace_id' | 'read_only'>): Promise<void> {
  await db.query('insert into circles (id, workspace_id, name, visibility, chat, created_by, created_at) values ($1, $2, $3, $4, $5, $6, $7)',
    [row.id, row.workspace_id, row.name, row.visibility, row.chat, row.created_by, row.created_at]);
}

/** The circle as seen by `memberId` (any visibility; callers apply the visibility rule). */
export async function findCircle(db: Db, workspaceId: string, circleId: string, memberId: string): Promise<CircleRow | undefined> {
  const { rows } = await db.query<CircleRow>(`select ${COLUMNS} from circles c where c.id = $1 and c.workspace_id = $3`, [circleId, memberId, workspaceId]);
  return rows[0];
}

/** Circles the member can see: public ones and private ones they belong to. */
export async function listVisibleCircles(db: Db, workspaceId: string, memberId: string, after: Cursor | null, limit: number): Promise<CircleRow[]> {
  const { rows } = await db.query<CircleRow>(
    `select * from (select ${COLUMNS} from circles c where c.workspace_id = $1) v
     where (v.visibility = 'public' or v.is_member) and ($3::timestamptz is null or (v.created_at, v.id) > ($3, $4))
     order by v.created_at, v.id limit $5`,
    [workspaceId, memberId, after?.at ?? null, after?.id ?? '', limit + 1]);
  return rows;
}

export async function addCircleMember(db: Db, circleId: string, memberId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('insert into circle_members (circle_id, member_id, added_at) values ($1, $2, $3) on conflict do nothing', [circleId, memberId, at]);
  return rowCount > 0;
}

export async function removeCircleMember(db: Db, circleId: string, memberId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from circle_members where circle_id = $1 and member_id = $2', [circleId, memberId]);
  return rowCount > 0;
}

export async function isCircleMember(db: Db, circleId: string, memberId: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from circle_members where circle_id = $1 and member_id = $2', [circleId, memberId]);
  return rows.length > 0;
}

export async function listCircleMembers(db: Db, circleId: string, after: Cursor | null, limit: number): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `select m.id, m.workspace_id, m.name, m.role, m.created_at from circle_members cm join members m on m.id = cm.member_id
     where cm.circle_id = $1 and ($2::timestamptz is null or (m.created_at, m.id) > ($2, $3))
     order by m.created_at, m.id limit $4`,
    [circleId, after?.at ?? null, after?.id ?? '', limit + 1]);
  return rows;
}

export async function connectCircle(db: Db, circleId: string, otherWorkspaceId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'update circles set connected = true, connected_workspace_id = $2, connected_at = $3 where id = $1 and not connected', [circleId, otherWorkspaceId, at]);
  return rowCount > 0;
}

export async function endCircleConnection(db: Db, circleId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'update circles set read_only = true, connection_ended_at = $2 where id = $1 and connected and not read_only', [circleId, at]);
  return rowCount > 0;
}

/** Whether the workspace may name this app: it exists, and it is public or the workspace's own. */
export async function appVisibleTo(db: Db, appId: string, workspaceId: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from apps where id = $1 and (not private or workspace_id = $2)', [appId, workspaceId]);
  return rows.length > 0;
}

export async function insertInvitation(db: Db, row: InvitationRow): Promise<void> {
  await db.query('insert into circle_app_invitations (circle_id, app_id, invited_by, created_at) values ($1, $2, $3, $4) on conflict do nothing',
    [row.circle_id, row.app_id, row.invited_by, row.created_at]);
}

export async function findInvitation(db: Db, circleId: string, appId: string): Promise<InvitationRow | undefined> {
  const { rows } = await db.query<InvitationRow>('select circle_id, app_id, invited_by, created_at from circle_app_invitations where circle_id = $1 and app_id = $2', [circleId, appId]);
  return rows[0];
}

export async function deleteInvitation(db: Db, circleId: string, appId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from circle_app_invitations where circle_id = $1 and app_id = $2', [circleId, appId]);
  return rowCount > 0;
}

export async function listInvitations(db: Db, circleId: string): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(
    'select circle_id, app_id, invited_by, created_at from circle_app_invitations where circle_id = $1 order by created_at, app_id', [circleId]);
  return rows;
}
