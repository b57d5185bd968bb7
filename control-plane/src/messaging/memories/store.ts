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
  edited_at: Date | null;
  edited_by: string | null;
  seq: number;
}

const MEMORY_COLUMNS = 'm.id, m.title, m.text, m.app_id, a.name as app_name, m.created_at, m.edited_at, m.edited_by, m.seq';
/** The memories a member sees: the workspace's shared ones, and those shown to them alone. */
const SEEN_BY = '(m.audience_member_id is null or m.audience_member_id = $2)';

/** The memories a member of the workspace sees, newest first, after the page key `before`; one more than `limit`. */
export async function listMemories(db: Db, workspaceId: string, memberId: string, before: { at: Date; seq: number } | null, limit: number): Promise<MemoryRow[]> {
  const { rows } = await db.query<MemoryRow>(
    `select ${MEMORY_COLUMNS}
       from memories m left join apps a on a.id = m.app_id
      where m.workspace_id = $1 and ${SEEN_BY}
        and ($3::timestamptz is null or (m.created_at, m.seq) < ($3, $4::bigint))
      order by m.created_at desc, m.seq desc limit $5`,
    [workspaceId, memberId, before?.at ?? null, before?.seq ?? 0, limit + 1]);
  return rows;
}

/** A memory of the workspace the member sees, with whether it is shown to them alone. */
export async function findSeenMemory(db: Db, workspaceId: string, memberId: string, id: string): Promise<{ id: string; personal: boolean } | undefined> {
  const { rows } = await db.query<{ id: string; personal: boolean }>(
    `select m.id, m.audience_member_id is not null as personal from memories m where m.workspace_id = $1 and ${SEEN_BY} and m.id = $3`,
    [workspaceId, memberId, id]);
  return rows[0];
}

/** Writes a member's edit (only the fields given); undefined when the memory is gone meanwhile. */
export async function editMemory(db: Db, input: { id: string; text?: string; title?: string | null; memberId: string; at: Date }): Promise<MemoryRow | undefined> {
  const { rows } = await db.query<MemoryRow>(
    `with edited as (
       update memories set text = coalesce($2, text), title = case when $3 then $4 else title end, edited_at = $5, edited_by = $6
        where id = $1 returning *)
     select ${MEMORY_COLUMNS} from edited m left join apps a on a.id = m.app_id`,
    [input.id, input.text ?? null, input.title !== undefined, input.title ?? null, input.at, input.memberId]);
  return rows[0];
}

export async function deleteMemory(db: Db, id: string): Promise<void> {
  await db.query('delete from memories where id = $1', [id]);
}
