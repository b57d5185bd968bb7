/**
 * @module cli/schedules
 * `platform schedules [list] [--app <id|slug>] [--json]`: the app's schedules per install, with
 * next and last firing and the last firing's outcome (`GET /v0/apps/{app_id}/schedules`).
 * `platform schedules run <name> [--install <id>]`: fires one now (`POST …/schedules/{name}/run`),
 * for the development install unless one is named; `platform dev` relays it to the local app.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient, type ScheduleState } from './service.ts';

export const SCHEDULES_USAGE = `Usage: platform schedules [list] [--app <app id or slug>] [--json]
       platform schedules run <name> [--install <install id>] [--app <app id or slug>]
                         [--url <service URL>] [--key <API key>]

Lists the app's schedules (defineSchedule) for each install: cron expression and time zone, the
next due time, the last firing and its delivery's outcome, due times skipped while the install
was suspended or paused. "run" fires one now (dueAt = now, missed 0) for the development install,
or --install; with platform dev running, the local app receives it at once. The app is --app,
else the one platform.json records.`;

const OPTIONS = { app: { type: 'string' }, install: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS } as const;

/** One line per schedule. */
export function describeSchedule(s: ScheduleState): string {
  const last = s.lastDueAt === null ? 'never fired' : `last ${s.lastDueAt} (${s.lastOutcome ?? 'no longer kept'})`;
  const skipped = s.skipped > 0 ? `, ${s.skipped} skipped` : '';
  return `${s.name.padEnd(16)} ${`${s.cron} ${s.timeZone}`.padEnd(32)} ${s.installKind.padEnd(9)} ${s.installId}  next ${s.nextDueAt ?? 'never'}, ${last}${skipped}`;
}

/**
 * @example await schedulesCommand(['run', 'standup']);
 */
export async function schedulesCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  const [action = 'list', name, ...extra] = positionals;
  if (action !== 'list' && action !== 'run') throw new UsageError(`platform schedules takes list or run, not "${action}"`);
  if (action === 'run' && name === undefined) throw new UsageError('platform schedules run takes the schedule\'s name');
  if (extra.length > 0 || (action === 'list' && name !== undefined)) throw new UsageError('Too many arguments');
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  await reportingFailures(async () => {
    const { appId } = await resolveApp({ cwd: process.cwd(), session, service, app: flags.app });
    if (action === 'run') {
      const fired = await service.runSchedule(appId, name!, flags.install);
      if (flags.json) return print(JSON.stringify(fired, null, 2));
      return print(`Fired ${name} for ${fired.installId} (delivery ${fired.id}, due ${fired.dueAt})`);
    }
    const items = await service.listSchedules(appId);
    if (flags.json) return print(JSON.stringify({ items }, null, 2));
    if (items.length === 0) return print(`${appId} has no schedules on any install (defineSchedule adds them; installs read them within a second)`);
    for (const s of items) print(describeSchedule(s));
  });
}
