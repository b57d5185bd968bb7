/**
 * @module cron/cron
 * Cron expressions of schedules, read by `croner` (its dialect: five fields, or six with seconds
 * first, plus `L`, `W`, `#` and the `@hourly`-style nicknames; day-of-month and day-of-week are
 * OR-ed as in Vixie cron) and evaluated in an IANA time zone. One module for the SDK's manifest
 * check and the control plane's firing loop, so both read an expression the same way.
 *
 * Daylight saving (docs/decisions/schedules.md): due times are croner's. A local time that does
 * not exist (clocks jump forward over it) is due at the instant the clocks jump; a local time that
 * happens twice (clocks go back) is due once, at its first occurrence, for patterns naming a fixed
 * hour; patterns that match every hour match both repeated hours.
 */
import { Cron } from 'croner';
import { LIMITS } from '../limits/index.ts';

const S = LIMITS.schedules;

/** What the firing loop needs of a schedule. */
export interface CronSchedule {
  readonly cron: string;
  readonly timeZone: string;
}

export type CronProblem = 'schedule-cron-invalid' | 'schedule-too-frequent' | 'schedule-time-zone-unknown';
export type CronCheck = { ok: true } | { ok: false; reason: CronProblem; message: string };

/** True for an IANA zone name this JavaScript engine knows (Intl is the reference). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (timeZone.length === 0 || timeZone.length > S.timeZoneLength) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function compile(schedule: CronSchedule): Cron {
  return new Cron(schedule.cron, { timezone: schedule.timeZone, paused: true });
}

/**
 * Checks a schedule's expression and zone: it must parse, ever fire, and never fire twice within
 * a minute. With a seconds field of several values two firings fall in one minute: from any
 * start, three consecutive due times include two of the same minute, so three are enough.
 * @example checkCron({ cron: '0 9 * * MON-FRI', timeZone: 'Europe/Berlin' }) // { ok: true }
 */
export function checkCron(schedule: CronSchedule, from: Date = new Date(Date.UTC(2026, 0, 1))): CronCheck {
  if (!isKnownTimeZone(schedule.timeZone)) {
    return { ok: false, reason: 'schedule-time-zone-unknown', message: `"${schedule.timeZone.slice(0, 64)}" is not an IANA time zone` };
  }
  let cron: Cron;
  try {
    cron = compile(schedule);
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : 'unreadable';
    return { ok: false, reason: 'schedule-cron-invalid', message: `The cron expression does not parse: ${detail.slice(0, 200)}` };
  }
  const runs = cron.nextRuns(3, from);
  if (runs.length === 0) return { ok: false, reason: 'schedule-cron-invalid', message: 'The cron expression never fires' };
  for (let i = 1; i < runs.length; i++) {
    if (runs[i]!.getTime() - runs[i - 1]!.getTime() < S.minIntervalMs) {
      return { ok: false, reason: 'schedule-too-frequent', message: 'Firings are at least one minute apart' };
    }
  }
  return { ok: true };
}

/**
 * The first due time strictly after `after`, or null when the expression fires no more.
 * @example nextDue({ cron: '* * * * *', timeZone: 'UTC' }, new Date('2026-01-01T00:00:30Z')) // 00:01:00
 */
export function nextDue(schedule: CronSchedule, after: Date): Date | null {
  return compile(schedule).nextRun(after);
}

/** Due times from `first` (included) up to `until` (included): the latest of them and how many came before it. */
export interface DueWindow {
  readonly latest: Date;
  /** Due times before `latest` in the window, counted up to `LIMITS.schedules.missedCountMax`. */
  readonly missed: number;
}

/**
 * Which firing is owed at `until` for a schedule whose next due time was `first`: after downtime
 * one catch-up firing, for the latest due time, saying how many earlier ones it stands for.
 * Null when `first` is still ahead.
 * @example dueWindow({ cron: '* * * * *', timeZone: 'UTC' }, t0, new Date(t0.getTime() + 180_000)) // { latest: t0 + 3 min, missed: 3 }
 */
export function dueWindow(schedule: CronSchedule, first: Date, until: Date): DueWindow | null {
  if (first.getTime() > until.getTime()) return null;
  const cron = compile(schedule);
  let latest = first;
  let missed = 0;
  for (let next = cron.nextRun(latest); next !== null && next.getTime() <= until.getTime(); next = cron.nextRun(latest)) {
    latest = next;
    missed++;
    if (missed >= S.missedCountMax) {
      // Counting stops; the firing is still for the latest due time before `until`.
      const last = lastBefore(cron, until);
      return { latest: last ?? latest, missed };
    }
  }
  return { latest, missed };
}

/** The latest due time at or before `until`, found by stepping back in widening windows. */
function lastBefore(cron: Cron, until: Date): Date | null {
  for (let span = S.minIntervalMs; span <= 400 * 24 * 60 * 60 * 1000; span *= 4) {
    const runs = cron.nextRuns(S.missedCountMax, new Date(until.getTime() - span)).filter((run) => run.getTime() <= until.getTime());
    if (runs.length > 0) return runs[runs.length - 1]!;
  }
  return null;
}
