/**
 * @module schedules/lean
 * `ScheduleFiredDataSchema` (schedules/delivery.ts) as a lean check, for `app.fetch` inside hosted
 * bundles (no zod there).
 */
import { LIMITS } from '../limits/index.ts';
import { int, matches, object, str, type Check } from '../delivery/lean/check.ts';
import { timestamp } from '../delivery/lean/primitives.ts';

export const scheduleFiredCheck: Check = object({
  schedule: object({
    name: matches(LIMITS.identifiers.scheduleName, 'Invalid string: must match pattern'),
    cron: str(),
    timeZone: str(),
    dueAt: timestamp,
    missed: int(0),
  }),
});
