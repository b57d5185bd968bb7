/**
 * @module workspace/events/store
 * SQL of event production: the installs that could receive an event in a workspace (active, their
 * running version subscribing to one of the types), the circle an event happens in, outbox rows
 * written in bulk, and the version counters of messages and conversations.
 */
import type { Db } from '../../core/db/db.ts';

export interface CandidateRow {
  install_id: string;
  app_id: string;
  kind: 'workspace' | 'dev';
  approved_scopes: string[];
  slug: string;
  events: string[];
  references: unknown;
  /** The app is invited to the event's circle. */
  invited: boolean;
  /** Dev installs: the developer belongs to the event's circle. */
  developer_member: boolean;
}

export interface CircleReachRow {
  visibility: 'public' | 'private';
  connected: boolean;
  read_only: boolean;
}

/**
 * Active installs of the workspace whose running version subscribes to any of `types`, restricted
 * to `installIds` when given, with what the reach rule needs about `circleId`.
 */
export async function candidateInstalls(
  db: Db, input: { workspaceId: string; circleId: string | null; types: readonly string[]; installIds: readonly string[] | null },
): Promise<CandidateRow[]> {
  const { rows } = await db.query<CandidateRow>(
    `select i.id as install_id, i.app_id, i.kind, i.approved_scopes, a.slug,
            v.manifest -> 'events' as events, v.manifest -> 'references' as references,
            ($2::text is not null and exists (select 1 from circle_app_invitations ci where ci.circle_id = $2 and ci.app_id = i.app_id)) as invited,
            ($2::text is not null and exists (select 1 from circle_members cm
               where cm.circle_id = $2 and cm.member_id = coalesce(i.installed_by_member_id, a.owner_member_id))) as developer_member
       from installs i
       join apps a on a.id = i.app_id
       join app_versions v on v.app_id = i.app_id and v.version = i.version
      where i.workspace_id = $1 and i.status = 'active'
        and jsonb_typeof(v.manifest -> 'events') = 'array' and jsonb_exists_any(v.manifest -> 'events', $3::text[])
        and ($4::text[] is null or i.id = any($4::text[]))
      order by i.id`,
    [input.workspaceId, input.circleId, [...input.types], input.installIds === null ? null : [...input.installIds]]);
  return rows;
}

export async function circleForReach(db: Db, workspaceId: string, circleId: string): Promise<CircleReachRow | undefined> {
  const { rows } = await db.query<CircleReachRow>('select visibility, connected, read_only from circles where id = $1 and workspace_id = $2', [circleId, workspaceId]);
  return rows[0];
}

export interface OutboxRow {
  id: string;
  install_id: string;
  type: string;
  payload: Record<string, unknown>;
  actor: { memberId: string; name: string } | null;
  created_at: Date;
}

/** Inserts outbox rows in one statement; the 008 trigger adds their deliveries. */
export async function insertOutboxRows(db: Db, rows: readonly OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `insert into outbox_events (id, install_id, type, payload, actor, created_at)
     select id, install_id, type, payload, actor, created_at
       from jsonb_to_recordset($1::jsonb) as r(id text, install_id text, type text, payload jsonb, actor jsonb, created_at timestamptz)`,
    [JSON.stringify(rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })))]);
}

/** Counts one more change of a message; answers its new version. */
export async function bumpMessageVersion(db: Db, messageId: string): Promise<number> {
  const { rows } = await db.query<{ version: number }>('update messages set version = version + 1 where id = $1 returning version', [messageId]);
  return rows[0]?.version ?? 1;
}

/** The message's version, its row locked until the transaction ends (edits of one message queue up). */
export async function lockMessageVersion(db: Db, messageId: string): Promise<number> {
  const { rows } = await db.query<{ version: number }>('select version from messages where id = $1 for no key update', [messageId]);
  return rows[0]?.version ?? 1;
}

/** Counts one more change of a conversation; answers its new version. */
export async function bumpConversationVersion(db: Db, conversationId: string): Promise<number> {
  const { rows } = await db.query<{ version: number }>('update conversations set version = version + 1 where id = $1 returning version', [conversationId]);
  return rows[0]?.version ?? 1;
}

/**
 * Whether the conversation holds a top-level message other than `exceptId`. Locks the conversation
 * row first, so two first messages posted at once do not both count as its post.
 *
 * `for no key update`, as every row lock of the control plane: the message just inserted holds a
 * key-share lock on its conversation (its foreign key), and so does every other message being
 * posted there; `for update` would wait on those while they wait on us (a deadlock under concurrent
 * posts, found by the fleet chaos test). `no key update` conflicts only with writers.
 */
export async function conversationHasOtherPosts(db: Db, conversationId: string, exceptId: string): Promise<boolean> {
  await db.query('select 1 from conversations where id = $1 for no key update', [conversationId]);
  const { rows } = await db.query('select 1 from messages where conversation_id = $1 and reply_to is null and id <> $2 limit 1', [conversationId, exceptId]);
  return rows.length > 0;
}

/**
 * The first top-level message of a conversation (the post later top-level messages answer). Ordered
 * by `(created_at, seq)`, the one ordering key of messages everywhere (every list and its cursors), so
 * two messages written in one millisecond agree here and in the list (docs/decisions/hardening.md).
 */
export async function firstPostOf(db: Db, conversationId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'select id from messages where conversation_id = $1 and reply_to is null order by created_at, seq limit 1', [conversationId]);
  return rows[0]?.id;
}
