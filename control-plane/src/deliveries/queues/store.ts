/**
 * @module deliveries/queues/store
 * SQL of queue sends (migration 026): what the install's version says about its queue, what its
 * queue holds (for the limits), dedupe keys, and the messages themselves: outbox events of type
 * `queue.message` due at `deliver_at`, whose deliveries the 026 trigger creates with the queue's
 * attempts.
 */
import type { Db } from '../../core/db/db.ts';

/** The install's status and its version's `queue` (null when the app defines none). */
export async function installQueue(db: Db, installId: string): Promise<{ status: string; queue: { maxAttempts: number } | null } | undefined> {
  const { rows } = await db.query<{ status: string; queue: { maxAttempts: number } | null }>(
    `select i.status, case when jsonb_typeof(v.manifest -> 'queue') = 'object' then v.manifest -> 'queue' end as queue
       from installs i join app_versions v on v.app_id = i.app_id and v.version = i.version where i.id = $1`,
    [installId]);
  return rows[0];
}

/** Serialises sends of one install (limits are read, then written) until the transaction ends. */
export async function lockInstallQueue(tx: Db, installId: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext('platform:queue:' || $1))`, [installId]);
}

/** Messages sent in the window, and bytes of bodies not yet acknowledged (pending, paused). */
export async function queueUsage(db: Db, installId: string, since: Date): Promise<{ recent: number; queuedBytes: number }> {
  const { rows } = await db.query<{ recent: number; queued_bytes: number }>(
    `select (select count(*)::int from outbox_events where install_id = $1 and type = 'queue.message' and created_at > $2) as recent,
            (select coalesce(sum(e.queued_bytes), 0)::int from deliveries d join outbox_events e on e.id = d.event_id
              where d.install_id = $1 and d.type = 'queue.message' and d.status in ('pending', 'paused')) as queued_bytes`,
    [installId, since]);
  return { recent: rows[0]!.recent, queuedBytes: rows[0]!.queued_bytes };
}

/** Live dedupe keys among `keys`: the message each one sent. */
export async function liveKeys(db: Db, installId: string, keys: readonly string[], now: Date): Promise<Map<string, { messageId: string; deliverAt: Date }>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.query<{ key: string; message_id: string; deliver_at: Date }>(
    'select key, message_id, deliver_at from queue_keys where install_id = $1 and key = any($2::text[]) and expires_at > $3', [installId, [...keys], now]);
  return new Map(rows.map((r) => [r.key, { messageId: r.message_id, deliverAt: r.deliver_at }]));
}

export interface MessageRow {
  id: string;
  key: string | null;
  payload: Record<string, unknown>;
  bytes: number;
  deliver_at: Date;
}

/** Writes the messages (and their keys) in one statement each. */
export async function insertMessages(tx: Db, installId: string, rows: readonly MessageRow[], now: Date, keyExpiresAt: Date): Promise<void> {
  const json = JSON.stringify(rows.map((r) => ({ ...r, deliver_at: r.deliver_at.toISOString() })));
  await tx.query(
    `insert into outbox_events (id, install_id, type, payload, actor, created_at, deliver_at, queued_bytes)
     select r.id, $2, 'queue.message', r.payload, null, $3, r.deliver_at, r.bytes
       from jsonb_to_recordset($1::jsonb) as r(id text, payload jsonb, bytes int, deliver_at timestamptz)`,
    [json, installId, now]);
  // Most sends carry no key: no statement for them (one round trip less per request).
  if (rows.every((r) => r.key === null)) return;
  await tx.query(
    `insert into queue_keys (install_id, key, message_id, deliver_at, expires_at)
     select $2, r.key, r.id, r.deliver_at, $3 from jsonb_to_recordset($1::jsonb) as r(id text, key text, deliver_at timestamptz) where r.key is not null
     on conflict (install_id, key) do update set message_id = excluded.message_id, deliver_at = excluded.deliver_at, expires_at = excluded.expires_at`,
    [json, installId, keyExpiresAt]);
}

/** Removes dedupe keys past their window (retention). */
export async function pruneQueueKeys(db: Db, now: Date): Promise<number> {
  const { rowCount } = await db.query('delete from queue_keys where ctid in (select ctid from queue_keys where expires_at <= $1 limit 1000)', [now]);
  return rowCount;
}
