/**
 * @module schedules/delivery-type
 * The `schedule.fired` delivery type as plain data (no zod), for `app.fetch` inside bundles.
 * Not an event name: there is no subscription, the manifest's schedule is one.
 */
export const SCHEDULE_FIRED = 'schedule.fired';
