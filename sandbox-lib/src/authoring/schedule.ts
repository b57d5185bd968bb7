/**
 * @module authoring/schedule
 * `defineSchedule`: work the app does on a clock (ours, docs/decisions/schedules.md). The
 * definition is data (name, cron expression, time zone) whose manifest fragment is a `schedules`
 * entry; each install then receives a `schedule.fired` lifecycle delivery per due time, which runs
 * the handler. Returning acknowledges; throwing makes the service retry on the outbox schedule.
 */
import type { ScheduleDefinition } from '../manifest/index.ts';
import { read } from '../delivery/lean/check.ts';
import { scheduleFiredCheck } from '../schedules/lean.ts';
import { extendContext, handlerContext, type ContextDeps, type DeliveryEnvelope, type HandlerContext } from './context.ts';
import { AppDefinitionError } from './errors.ts';
import { callHandler, DeliveryRejection } from './failures.ts';

import { pieceRun, SCHEDULE, SCHEDULE_HANDLER as HANDLER, type PieceRun } from './initiative-pieces.ts';

/** What a firing says: the schedule, the due time it is for, and how many earlier due times it stands for (after downtime). */
export interface ScheduleFiring {
  readonly name: string;
  readonly cron: string;
  readonly timeZone: string;
  /** ISO 8601: the due time of this firing (not when it arrived). */
  readonly dueAt: string;
  /** Due times before `dueAt` that were not fired (the service was down); 0 normally. */
  readonly missed: number;
}

export interface ScheduleContext extends HandlerContext<DeliveryEnvelope<{ schedule: ScheduleFiring }>> {
  readonly schedule: ScheduleFiring;
}

export type ScheduleHandler = (ctx: ScheduleContext) => void | Promise<void>;

export interface ScheduleConfig {
  /** 1 to 48 characters from a-z, 0-9 and -; unique in the app. */
  readonly name: string;
  /** Five fields (`minute hour day month weekday`), or six with seconds first; at most once a minute. */
  readonly cron: string;
  /** IANA time zone the expression is read in. Default `UTC`. */
  readonly timeZone?: string;
  readonly handler: ScheduleHandler;
}

/** A schedule's handler, with the runner of `schedule.fired` (so apps without schedules bundle neither). */
export type ScheduleRun = PieceRun<ScheduleHandler, typeof runSchedule>;

export interface Schedule {
  readonly [SCHEDULE]: true;
  readonly name: string;
  readonly manifest: ScheduleDefinition;
  readonly [HANDLER]: ScheduleRun;
  toJSON(): ScheduleDefinition;
}

/**
 * Defines a schedule.
 * @example
 * const standup = defineSchedule({
 *   name: 'standup', cron: '0 9 * * MON-FRI', timeZone: 'Europe/Berlin',
 *   handler: async ({ api, schedule }) => { await api.memories.add({ text: `Stand-up of ${schedule.dueAt}` }) },
 * });
 * export default defineApp({ name: 'Standup', slug: 'standup', hosting: 'platform', schedules: [standup] });
 */
export function defineSchedule(config: ScheduleConfig): Schedule {
  const where = ['schedules', typeof config?.name === 'string' ? config.name : '?'];
  if (typeof config?.handler !== 'function') throw new AppDefinitionError([...where, 'handler'], 'every schedule needs a handler');
  if (typeof config.cron !== 'string') throw new AppDefinitionError([...where, 'cron'], 'give a cron expression such as "0 9 * * MON-FRI"');
  const manifest: ScheduleDefinition = { name: config.name, cron: config.cron, timeZone: config.timeZone ?? 'UTC' };
  const schedule = { [SCHEDULE]: true as const, name: config.name, manifest, toJSON: () => manifest };
  Object.defineProperty(schedule, HANDLER, { value: { handler: config.handler, run: runSchedule } satisfies ScheduleRun, enumerable: false });
  return Object.freeze(schedule) as Schedule;
}

/** The handler of a defined schedule, or `undefined`. */
export function scheduleHandler(value: unknown): ScheduleHandler | undefined {
  return pieceRun<ScheduleRun>(value, SCHEDULE, HANDLER)?.handler;
}

/**
 * Runs one `schedule.fired` delivery. A firing of a schedule this version no longer has (it was
 * removed while a firing waited) is acknowledged without running anything.
 */
export async function runSchedule(envelope: DeliveryEnvelope, schedules: ReadonlyMap<string, ScheduleHandler>, deps: ContextDeps): Promise<void> {
  const parsed = read(scheduleFiredCheck, envelope.data);
  if (!parsed.ok) throw new DeliveryRejection(400, 'invalid-data', `The schedule.fired data does not match its schema at ${parsed.path.join('.') || '(root)'}: ${parsed.message}`);
  const data = parsed.value as { schedule: ScheduleFiring };
  const handler = schedules.get(data.schedule.name);
  if (!handler) {
    deps.log.debug(`No schedule named ${data.schedule.name}; acknowledged`, { delivery: envelope.id });
    return;
  }
  const ctx = extendContext(handlerContext({ ...envelope, data }, deps), { schedule: data.schedule });
  await callHandler(`schedule ${data.schedule.name}`, () => handler(ctx));
}
