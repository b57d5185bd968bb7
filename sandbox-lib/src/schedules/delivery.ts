/**
 * @module schedules/delivery
 * The `schedule.fired` lifecycle delivery (ours): which schedule, the due time it is for, and how
 * many earlier due times it stands for (`missed` > 0 only for the catch-up firing after downtime).
 * Read leniently like every lifecycle payload, so later fields do not break older apps.
 */
import { z } from 'zod';
import { TimestampSchema } from '../wire/primitives.ts';
import { LIMITS } from '../limits/index.ts';

export { SCHEDULE_FIRED } from './delivery-type.ts';

export const ScheduleFiredDataSchema = z.looseObject({
  schedule: z.looseObject({
    name: z.string().regex(LIMITS.identifiers.scheduleName),
    cron: z.string(),
    timeZone: z.string(),
    dueAt: TimestampSchema,
    missed: z.int().min(0),
  }),
});

export type ScheduleFiredData = z.infer<typeof ScheduleFiredDataSchema>;
