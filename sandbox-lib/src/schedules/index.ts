/**
 * @module schedules
 * Schedules (our extension, docs/decisions/schedules.md): cron expressions in a time zone, read
 * the same way by the SDK's manifest check and the control plane's firing loop, and the data of
 * the `schedule.fired` lifecycle delivery.
 */
export { checkCron, dueWindow, isKnownTimeZone, nextDue, type CronCheck, type CronProblem, type CronSchedule, type DueWindow } from '../cron/cron.ts';
export { SCHEDULE_FIRED, ScheduleFiredDataSchema, type ScheduleFiredData } from './delivery.ts';
