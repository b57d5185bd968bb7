/**
 * @module deliveries/initiative/store
 * SQL behind what authors and operators see of schedules and queues: each install's schedules with
 * their next and last firing and the last firing's outcome, each install's queue (depth, oldest
 * message, dead letters), and the same per app for the metrics.
 */
import type { Db } from '../../core/db/db.ts';

export interface ScheduleStateRow {
  install_id: string;
  install_kind: 'workspace' | 'dev';
  name: string;
  cron: string;
  time_zone: string;
  next_due_at: Date | null;
  last_due_at: Date | null;
  last_fired_at: Date | null;
  skipped: number;
  last_outcome: string | null;
}

export async function appSchedules(db: Db, appId: string): Promise<ScheduleStateRow[]> {
  const { rows } = await db.query<ScheduleStateRow>(
    `select s.install_id, i.kind as install_kind, s.name, s.cron, s.time_zone, s.next_due_at, s.last_due_at, s.last_fired_at, s.skipped,
            d.status as last_outcome
       from install_schedules s join installs i on i.id = s.install_id left join deliveries d on d.id = s.last_event_id
      where s.app_id = $1 order by i.kind, s.install_id, s.name`,
    [appId]);
  return rows;
}

export interface QueueStateRow {
  install_id: string;
  install_kind: 'workspace' | 'dev';
  depth: number;
  oldest_at: Date | null;
  dead: number;
}

export async function appQueues(db: Db, appId: string): Promise<QueueStateRow[]> {
  const { rows } = await db.query<QueueStateRow>(
    `select i.id as install_id, i.kind as install_kind,
            count(*) filter (where d.status in ('pending', 'paused'))::int as depth,
            min(d.created_at) filter (where d.status in ('pending', 'paused')) as oldest_at,
            count(*) filter (where d.status = 'dead')::int as dead
       from installs i join deliveries d on d.install_id = i.id and d.type = 'queue.message'
      where i.app_id = $1 group by i.id, i.kind order by i.kind, i.id`,
    [appId]);
  return rows;
}

export async function deadLetters(db: Db, appId: string, limit: number): Promise<Array<{ id: string; install_id: string; created_at: Date; attempts: number; last_error: string | null }>> {
  const { rows } = await db.query<{ id: string; install_id: string; created_at: Date; attempts: number; last_error: string | null }>(
    `select id, install_id, created_at, attempts, last_error from deliveries
      where app_id = $1 and type = 'queue.message' and status = 'dead' order by created_at desc, id desc limit $2`,
    [appId, limit]);
  return rows;
}

/** The install a tooling call acts on: the one named (of this app, active), else the app's development install. */
export async function targetInstall(db: Db, appId: string, installId: string | undefined): Promise<{ id: string; workspace_id: string; kind: 'workspace' | 'dev' } | undefined> {
  const { rows } = await db.query<{ id: string; workspace_id: string; kind: 'workspace' | 'dev' }>(
    `select id, workspace_id, kind from installs where app_id = $1 and status = 'active' and ($2::text is null and kind = 'dev' or id = $2)
      order by created_at desc limit 1`,
    [appId, installId ?? null]);
  return rows[0];
}

/** Per app slug: waiting queue messages, the oldest one's time, dead letters (operator metrics). */
export async function queueTotals(db: Db): Promise<Array<{ slug: string; depth: number; oldest_at: Date | null; dead: number }>> {
  const { rows } = await db.query<{ slug: string; depth: number; oldest_at: Date | null; dead: number }>(
    `select a.slug,
            count(*) filter (where d.status in ('pending', 'paused'))::int as depth,
            min(d.created_at) filter (where d.status in ('pending', 'paused')) as oldest_at,
            count(*) filter (where d.status = 'dead')::int as dead
       from deliveries d join apps a on a.id = d.app_id
      where d.type = 'queue.message' and d.status in ('pending', 'paused', 'dead') group by a.slug`);
  return rows;
}

/** A firing on demand (`platform schedules run`): its own firing key, so it never takes a due time's place. */
export async function insertManualFiring(db: Db, input: { installId: string; appId: string; name: string; eventId: string; now: Date }): Promise<{ due_at: Date } | undefined> {
  const { rows } = await db.query<{ due_at: Date }>(
    `insert into outbox_events (id, install_id, type, payload, actor, created_at, firing_key)
     select $1, s.install_id, 'schedule.fired',
            jsonb_build_object('schedule', jsonb_build_object('name', s.name, 'cron', s.cron, 'timeZone', s.time_zone, 'dueAt', $5::text, 'missed', 0)),
            null, $4, 'run:' || s.name || ':' || $1
       from install_schedules s where s.install_id = $2 and s.name = $3 and s.app_id = $6
     returning created_at as due_at`,
    [input.eventId, input.installId, input.name, input.now, input.now.toISOString(), input.appId]);
  return rows[0];
}
