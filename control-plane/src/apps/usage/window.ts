/**
 * @module apps/usage/window
 * The window a reader asks for, checked: `from` before `to`, no longer than the step allows (24
 * hours of minutes, 90 days of hours), and not older than the step's rows are kept (the same
 * figures). Each refusal is `PlatformApiInvalidRequestError` naming the parameter (`path`) and why
 * (`code`: window_reversed, window_too_long, over_retention; `last` beside `from` or `to`:
 * window_conflict). `last` (1h, 24h, 7d, 90d) is the window ending now, read per minute for the
 * first two and per hour for the others unless `step` says otherwise.
 */
import { invalidRequest } from '@platform/sdk';
import { bucketOf, STEP_MS, type Step } from './counters.ts';

const DAY = 86_400_000;

/** How long each step's rows are kept, which is also the longest window of that step. */
export const USAGE_RETENTION_MS = { minute: DAY, hour: 90 * DAY } as const;
/** A window's length when `from` is not given. */
const DEFAULT_SPAN_MS = { minute: 3_600_000, hour: DAY } as const;

export interface UsageWindow {
  step: Step;
  /** The start of the first bucket (`from` rounded down to the step). */
  from: Date;
  to: Date;
}

const refuse = (path: string, message: string, code: string) => invalidRequest([{ path: [path], message, code }], message);

/** The windows ending now (`last`), each with the step it is read at by default. */
const LAST: Record<string, { ms: number; step: Step }> = {
  '1h': { ms: 3_600_000, step: 'minute' }, '24h': { ms: DAY, step: 'minute' }, '7d': { ms: 7 * DAY, step: 'hour' }, '90d': { ms: 90 * DAY, step: 'hour' },
};

export interface WindowQuery {
  last?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  step?: Step | undefined;
}

export function usageWindow(query: WindowQuery, now: number): UsageWindow {
  const last = query.last === undefined ? undefined : LAST[query.last];
  if (last !== undefined && (query.from !== undefined || query.to !== undefined)) throw refuse('last', '`last` is a window ending now: give it without `from` and `to`', 'window_conflict');
  const step = query.step ?? last?.step ?? 'minute';
  const to = query.to === undefined ? now : Date.parse(query.to);
  const from = last !== undefined ? now - last.ms : query.from === undefined ? to - DEFAULT_SPAN_MS[step] : Date.parse(query.from);
  if (from > to) throw refuse('from', '`from` is after `to`', 'window_reversed');
  const days = USAGE_RETENTION_MS[step] / DAY;
  if (to - from > USAGE_RETENTION_MS[step]) throw refuse('from', `A window of step ${step} spans at most ${days === 1 ? '24 hours' : `${days} days`}`, 'window_too_long');
  if (from < now - USAGE_RETENTION_MS[step]) throw refuse('from', `Counts per ${step} are kept ${days === 1 ? '24 hours' : `${days} days`}: \`from\` is older`, 'over_retention');
  // A window ending now holds what was counted at this very millisecond too (`to` is exclusive).
  return { step, from: new Date(bucketOf(from, step)), to: new Date(query.to === undefined ? to + 1 : to) };
}

/** Every bucket start of the window, oldest first. */
export function bucketsOf(w: UsageWindow): number[] {
  const out: number[] = [];
  for (let b = w.from.getTime(); b < w.to.getTime(); b += STEP_MS[w.step]) out.push(b);
  return out;
}
