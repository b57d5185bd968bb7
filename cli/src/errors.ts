/**
 * @module cli/errors
 * `platform errors [app]`: the app's errors grouped by fingerprint (`GET /v0/apps/{app_id}/errors`),
 * last seen first: how often, where in the app's source, on which versions, in how many installs.
 * `platform errors show GROUP_ID`: one group with its newest examples (`…/errors/{group_id}`), each
 * with its whole stack while its log line is kept. `--json` prints what the API answers.
 */
import type { ErrorGroup, ErrorGroupDetail } from '@platform/sdk';
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { note, print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient } from './service.ts';
import { versionNumber } from './versions.ts';

export const ERRORS_USAGE = `Usage: platform errors [app] [--version N] [--level error|limit|delivery] [--limit N] [--json]
       platform errors show GROUP_ID [--app APP] [--json]

Lists the app's errors grouped by kind, last seen first: an uncaught error, a thrown route, an
Error the app logged, a load failure, a CPU or memory stop, a deadline, blocked egress, or a failed
delivery. Occurrences are one group when they have the same name, the same message once ids and
numbers are masked, and the same innermost frame in the app's source (file and function). Each
group says how often it happened, on which versions (the first is the version it is new on) and in
how many installs. The app is the argument (an app id or slug), else --app, else the one
platform.json records.

  --version N   occurrences on version N only
  --level L     error, limit (CPU, memory, deadline, blocked egress) or delivery (failed deliveries)
  --limit N     how many groups (default 20, at most 200)
  --json        what the API answers, whole
  show ID       one group with its newest examples and their stacks

Also --url <service URL> and --key <API key>.`;

const OPTIONS = { app: { type: 'string' }, version: { type: 'string' }, level: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS } as const;
const LEVELS = ['error', 'limit', 'delivery'];

function where(group: ErrorGroup): string | null {
  const f = group.topFrame;
  return f === null ? null : `at ${f.function ?? '<anonymous>'} (${f.file}${f.line === null ? '' : `:${f.line}`})`;
}

/** The lines describing one group. */
export function describeGroup(group: ErrorGroup): string[] {
  const versions = group.versions.map((v) => `${v.version ?? '?'} (${v.count})`).join(', ');
  const frame = where(group);
  return [
    `${String(group.count).padStart(6)}×  ${group.level.padEnd(8)} ${group.name}: ${group.message}`,
    ...(frame === null ? [] : [`           ${frame}`]),
    `           versions ${versions} · ${group.installs} install${group.installs === 1 ? '' : 's'} · first ${group.firstSeen} · last ${group.lastSeen}`,
    `           id ${group.id}`,
  ];
}

/** One group's examples: each line's message and whole stack, or the delivery to look up. */
export function describeExamples(detail: ErrorGroupDetail): string[] {
  return detail.examples.flatMap((e) => {
    const head = `  version ${e.version ?? '?'}`;
    if (e.line === null) return [`${head}: ${e.deliveryId === null ? 'its log line is no longer kept' : `delivery ${e.deliveryId} (platform logs --delivery ${e.deliveryId}; the console's Deliveries page)`}`];
    const frames = (e.line.error?.frames ?? []).map((f) => `      at ${f.function ?? '<anonymous>'} (${f.file ?? 'native'}${f.line === null ? '' : `:${f.line}:${f.column ?? 0}`})`);
    return [`${head}, ${e.line.at}, line ${e.line.id}${e.line.installId === null ? '' : `, install ${e.line.installId}`}: ${e.line.error?.message ?? e.line.message}`, ...frames];
  });
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 20;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 200) throw new UsageError(`--limit is a number from 1 to 200, not "${value}"`);
  return n;
}

export async function errorsCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  const showing = positionals[0] === 'show';
  if (showing ? positionals.length !== 2 : positionals.length > 1) throw new UsageError(showing ? 'platform errors show takes one group id' : 'platform errors takes at most one app');
  if (!showing && positionals.length === 1 && flags.app !== undefined) throw new UsageError('Give the app as the argument or as --app, not both');
  if (flags.level !== undefined && !LEVELS.includes(flags.level)) throw new UsageError(`--level is one of ${LEVELS.join(', ')}, not "${flags.level}"`);
  const version = flags.version === undefined ? undefined : versionNumber(flags.version, '--version');
  const limit = limitOf(flags.limit);
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  await reportingFailures(async () => {
    const { appId } = await resolveApp({ cwd: process.cwd(), session, service, app: showing ? flags.app : positionals[0] ?? flags.app });
    if (showing) {
      const detail = await service.getErrorGroup(appId, positionals[1]!);
      if (flags.json) return print(JSON.stringify(detail, null, 2));
      for (const line of [...describeGroup(detail), 'Newest examples:', ...describeExamples(detail)]) print(line);
      return;
    }
    const page = await service.listErrorGroups(appId, { version, level: flags.level, limit });
    if (flags.json) return print(JSON.stringify(page, null, 2));
    if (page.items.length === 0) return note(`No errors of ${appId}${version !== undefined || flags.level !== undefined ? ' match these filters' : ' yet'}`);
    print(`Errors of ${appId}, last seen first:`);
    for (const group of page.items) for (const line of describeGroup(group)) print(line);
    if (page.nextCursor !== null) print(`(more groups: --limit ${Math.min(200, limit * 2)})`);
  });
}
