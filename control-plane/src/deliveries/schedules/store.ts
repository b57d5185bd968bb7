/**
 * @module deliveries/schedules/store
 * SQL of the schedule loop (migration 026): which installs' schedule rows are out of date with the
 * version they run, bringing them up to date, claiming due rows (FOR UPDATE SKIP LOCKED, so the
 * loops of every control plane share them), and recording firings. A firing is an outbox event
 * whose `firing_key` is unique per install: a second insert of the same due time does nothing.
 */
import type { Db } from '../../core/db/db.ts';
import { preferOrderedScan } from '../outbox/store.ts';

/** An install whose schedule rows differ from its version's manifest (or that has none yet). */
export interface StaleInstall {
  install_id: string;
  app_id: string;
  version: number;
  schedules: Array<{ name: string; cron: string; timeZone: string }>;
}

const SCHEDULES = `case when jsonb_typeof(v.manifest -> 'schedules') = 'array' then v.manifest -> 'schedules' else '[]'::jsonb end`;

/** Installs (not uninstalled) whose rows were read from another version, or whose version has schedules and no rows yet. */
export async function staleInstalls(db: Db, limit: number): Promise<StaleInstall[]> {
  const { rows } = await db.query<StaleInstall>(
    `select i.id as install_id, i.app_id, i.version, ${SCHEDULES} as schedules
       from installs i join app_versions v on v.app_id = i.app_id and v.version = i.version
      where i.status <> 'uninstalled'
        and ((jsonb_array_length(${SCHEDULES}) > 0
              and not exists (select 1 from install_schedules s where s.install_id = i.id and s.version = i.version))
          or exists (select 1 from install_schedules s where s.install_id = i.id and s.version <> i.version))
      limit $1`,
    [limit]);
  return rows;
}

/** Removes the schedule rows of uninstalled installs; answers how many. */
export async function dropUninstalled(db: Db): Promise<number> {
  const { rowCount } = await db.query(
    `delete from install_schedules s using installs i where i.id = s.install_id and i.status = 'uninstalled'`);
  return rowCount;
}

export interface ScheduleRowInput {
  name: string;
  cron: string;
  time_zone: string;
  /** When it is first due if the row is new or its expression changed. */
  next_due_at: string | null;
}

/**
 * Makes the install's rows those of `version`: schedules it no longer has go, new ones come with
 * their first due time, changed expressions start again from it, unchanged ones keep their state
 * (so a version that only changes something else does not move a firing).
 */
export async function syncInstallRows(db: Db, input: { installId: string; appId: string; version: number; rows: readonly ScheduleRowInput[]; now: Date }): Promise<void> {
  await db.query('delete from install_schedules where install_id = $1 and not (name = any($2::text[]))', [input.installId, input.rows.map((r) => r.name)]);
  if (input.rows.length === 0) return;
  await db.query(
    `insert into install_schedules (install_id, name, app_id, version, cron, time_zone, next_due_at, created_at)
     select $1, r.name, $2, $3, r.cron, r.time_zone, r.next_due_at, $4
       from jsonb_to_recordset($5::jsonb) as r(name text, cron text, time_zone text, next_due_at timestamptz)
     on conflict (install_id, name) do update set
       version = excluded.version, cron = excluded.cron, time_zone = excluded.time_zone,
       next_due_at = case when install_schedules.cron = excluded.cron and install_schedules.time_zone = excluded.time_zone
                          then install_schedules.next_due_at else excluded.next_due_at end`,
    [input.installId, input.appId, input.version, input.now, JSON.stringify(input.rows)]);
}

/** A due schedule row, claimed, with what deciding about it needs. */
export interface DueRow {
  install_id: string;
  name: string;
  app_id: string;
  app_slug: string;
  cron: string;
  time_zone: string;
  next_due_at: Date;
  install_status: 'active' | 'suspended' | 'uninstalled';
  deliveries_paused: boolean;
}

/**
 * Claims due rows whose install runs the version they were read from (others wait for the sync).
 * Call inside a transaction: the row locks last until it commits.
 */
export async function claimDueSchedules(tx: Db, input: { now: Date; limit: number }): Promise<DueRow[]> {
  // As the delivery claim: read due rows in index order up to the limit, not all of them and sort.
  await preferOrderedScan(tx);
  const { rows } = await tx.query<DueRow>(
    `select s.install_id, s.name, s.app_id, a.slug as app_slug, s.cron, s.time_zone, s.next_due_at,
            i.status as install_status, i.deliveries_paused_at is not null as deliveries_paused
       from install_schedules s
       join installs i on i.id = s.install_id and i.version = s.version
       join apps a on a.id = s.app_id
      where s.next_due_at <= $1
      order by s.next_due_at
      limit $2
      for update of s skip locked`,
    [input.now, input.limit]);
  return rows;
}

/** What one claimed row became: a firing (an event) or due times passed over, and its next due time. */
export interface RowOutcome {
  install_id: string;
  name: string;
  next_due_at: string | null;
  /** The firing's event, or null when nothing fired (suspended, paused). */
  event: { id: string; due_at: string; payload: Record<string, unknown> } | null;
  /** Due times passed over without a firing. */
  skipped: number;
}

/**
 * Writes the firings' events (a due time already fired is left alone: the unique firing key) and
 * moves each row on. Answers the ids of the events written.
 */
export async function recordRowOutcomes(tx: Db, outcomes: readonly RowOutcome[], now: Date): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const firings = outcomes.flatMap((o) => (o.event === null ? [] : [{
    id: o.event.id, install_id: o.install_id, payload: o.event.payload, firing_key: `schedule:${o.name}:${o.event.due_at}`,
  }]));
  let written = new Set<string>();
  if (firings.length > 0) {
    const { rows } = await tx.query<{ id: string }>(
      `insert into outbox_events (id, install_id, type, payload, actor, created_at, firing_key)
       select r.id, r.install_id, 'schedule.fired', r.payload, null, $2, r.firing_key
         from jsonb_to_recordset($1::jsonb) as r(id text, install_id text, payload jsonb, firing_key text)
       on conflict (install_id, firing_key) where firing_key is not null do nothing
       returning id`,
      [JSON.stringify(firings), now]);
    written = new Set(rows.map((r) => r.id));
  }
  const updates = outcomes.map((o) => ({
    install_id: o.install_id, name: o.name, next_due_at: o.next_due_at, skipped: o.skipped,
    event_id: o.event !== null && written.has(o.event.id) ? o.event.id : null, due_at: o.event?.due_at ?? null,
  }));
  await tx.query(
    `update install_schedules s
        set next_due_at = r.next_due_at, skipped = s.skipped + r.skipped,
            last_due_at = coalesce(r.due_at, s.last_due_at),
            last_event_id = coalesce(r.event_id, s.last_event_id),
            last_fired_at = case when r.event_id is null then s.last_fired_at else $2 end
       from jsonb_to_recordset($1::jsonb) as r(install_id text, name text, next_due_at timestamptz, skipped int, event_id text, due_at timestamptz)
      where s.install_id = r.install_id and s.name = r.name`,
    [JSON.stringify(updates), now]);
  return written;
}
