/**
 * @module deliveries/schedules/due
 * What a claimed schedule row becomes at `now`, as a pure function: an active install gets one
 * firing for the latest due time (after downtime it says how many earlier due times it stands
 * for); a suspended or paused install gets none, and its due times are passed over (counted as
 * skipped, never fired later). Either way the row moves to the first due time after `now`.
 * Cron reading is memoised for one pass: many installs of one app share schedule and due time.
 */
import { dueWindow, nextDue, SCHEDULE_FIRED, type CronSchedule, type DueWindow } from '@platform/sdk';
import type { DueRow, RowOutcome } from './store.ts';

export { SCHEDULE_FIRED };

export interface CronMemo {
  window(schedule: CronSchedule, first: Date, until: Date): DueWindow | null;
  next(schedule: CronSchedule, after: Date): Date | null;
}

/** A memo for one pass (keys include every input, so it is only a cache). */
export function createCronMemo(): CronMemo {
  const windows = new Map<string, DueWindow | null>();
  const nexts = new Map<string, Date | null>();
  const key = (s: CronSchedule, ...times: Date[]) => [s.cron, s.timeZone, ...times.map((t) => t.getTime())].join('\u0000');
  return {
    window(schedule, first, until) {
      const k = key(schedule, first, until);
      if (!windows.has(k)) windows.set(k, dueWindow(schedule, first, until));
      return windows.get(k)!;
    },
    next(schedule, after) {
      const k = key(schedule, after);
      if (!nexts.has(k)) nexts.set(k, nextDue(schedule, after));
      return nexts.get(k)!;
    },
  };
}

/**
 * @example
 * const outcome = decideRow(row, new Date(clock.now()), memo, newEventId);
 */
export function decideRow(row: DueRow, now: Date, memo: CronMemo, newEventId: () => string): RowOutcome {
  const schedule = { cron: row.cron, timeZone: row.time_zone };
  const window = memo.window(schedule, row.next_due_at, now) ?? { latest: row.next_due_at, missed: 0 };
  const next = memo.next(schedule, window.latest);
  const base = { install_id: row.install_id, name: row.name, next_due_at: next === null ? null : next.toISOString() };
  if (row.install_status !== 'active' || row.deliveries_paused) return { ...base, event: null, skipped: window.missed + 1 };
  const dueAt = window.latest.toISOString();
  return {
    ...base,
    skipped: 0,
    event: { id: newEventId(), due_at: dueAt, payload: { schedule: { name: row.name, cron: row.cron, timeZone: row.time_zone, dueAt, missed: window.missed } } },
  };
}
