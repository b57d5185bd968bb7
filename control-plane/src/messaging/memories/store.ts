/**
 * @module messaging/memories/store
 * SQL of workspace memories (013_memories_inbox_order.sql).
 */
import type { Db } from '../../core/db/db.ts';

export interface NewMemory {
  id: string;
  workspaceId: string;
  appId: string;
  installId: string;
  /** null: the whole workspace sees it; a member: only they do (development installs). */
  audienceMemberId: string | null;
  title: string | null;
  text: string;
  at: Date;
}

export async function insertMemory(db: Db, m: NewMemory): Promise<void> {
  await db.query(
    `insert into memories (id, workspace_id, app_id, install_id, audience_member_id, title, text, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [m.id, m.workspaceId, m.appId, m.installId, m.audienceMemberId, m.title, m.text, m.at]);
}

/** The developer of an app (its owner): the one member a development install's memories are shown to. */
export async function appOwner(db: Db, appId: string): Promise<string | null> {
  const { rows } = await db.query<{ owner_member_id: string }>('select owner_member_id from apps where id = $1', [appId]);
  return rows[0]?.owner_member_id ?? null;
}

export interface MemoryRow {
  id: string;
  title: string | null;
  text: string;
  app_id: string | null;
  app_name: string | null;
  created_at: Date;
  seq: number;
}

/** The memories a member of the workspace sees, newest first, after the page key `before`; one more than `limit`. */
export async function listMemories(db: Db, workspaceId: string, memberId: string, before: { at: Date; seq: number } | null, limit: number): Promise<MemoryRow[]> {
  const { rows } = await db.query<MemoryRow>(
    `select m.id, m.title, m.text, m.app_id, a.name as app_name, m.created_at, m.seq
       from memories m left join apps a on a.id = m.app_id
      where m.workspace_id = $1 and (m.audience_member_id is null or m.audience_member_id = $2)
        and ($3::timestamptz is null or (m.created_at, m.seq) < ($3, $4::bigint))
      order by m.created_at desc, m.seq desc limit $5`,
    [workspaceId, memberId, before?.at ?? null, before?.seq ?? 0, limit + 1]);
  return rows;
}
