/**
 * @module cli/logs
 * `platform logs [app] [--follow]`: a hosted app's log lines (`GET /v0/apps/{app_id}/logs`), oldest
 * of the last `--limit` first, then, with `--follow`, the live stream (`…/logs/stream`, server-sent
 * events) from the newest line shown on, until interrupted; a dropped stream is reopened from the
 * last line seen. Filters: `--status`, `--version`, `--kind`, `--install`, `--delivery`. Lines are
 * coloured by level on a terminal (never with NO_COLOR or when piped), a line's error shown with
 * all its frames (the app's files, lines and functions, mapped by the node through the version's
 * source map), and each line cut at the terminal's width; `--json` prints each line as the API
 * answers it, whole.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { follow, recent, saveProfile, type Filters } from './logs-client.ts';
import { colourWanted, createPrinter } from './logs-output.ts';
import { note, print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient } from './service.ts';

export const LOGS_USAGE = `Usage: platform logs [app] [--follow] [--status ok|error] [--version N] [--kind KIND]
                     [--install ID] [--delivery ID] [--limit N] [--json]
       platform logs [app] --profile LINE_ID   (saves the line's CPU profile as a .cpuprofile file)

Shows a hosted app's log lines: console output, errors with their stacks (each frame naming the
app's file, line and function when the version was deployed with its source map), limit events
(CPU, memory, deadline, blocked egress, quarantine) and one line per request (route or delivery
type, status, CPU ms, wall ms, outbound calls). The app is the argument (an app id or slug), else
--app, else the one platform.json records.

  -f, --follow      keep the stream open and print lines as they arrive (Ctrl-C ends it)
  --status S        ok, or error: lines of failed requests, and error and limit lines
  --version N       lines of version N only
  --kind K          route, mcp, interactive, command or lifecycle
  --install ID      lines of one install's deliveries
  --delivery ID     lines of one delivery (a replay's id too)
  --limit N         how many recent lines to show first (default 50, at most 500)
  --json            one JSON object per line, as the API answers it (nothing cut)
  --profile ID      save the CPU profile of a request stopped at its CPU budget (the line that
                    says so links it) to <app>-<ID>.cpuprofile here; open it in Chrome DevTools

Also --url <service URL> and --key <API key>. Colour only on a terminal; NO_COLOR turns it off.`;

const OPTIONS = {
  follow: { type: 'boolean', aliases: ['f'] }, status: { type: 'string' }, version: { type: 'string' }, kind: { type: 'string' },
  install: { type: 'string' }, delivery: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, app: { type: 'string' }, profile: { type: 'string' }, ...SERVICE_OPTIONS,
} as const;

const KINDS = ['route', 'mcp', 'interactive', 'command', 'lifecycle'];

function filtersOf(flags: { status?: string | undefined; version?: string | undefined; kind?: string | undefined; install?: string | undefined; delivery?: string | undefined }): Filters {
  const filters: Filters = {};
  if (flags.status !== undefined) {
    if (flags.status !== 'ok' && flags.status !== 'error') throw new UsageError(`--status is ok or error, not "${flags.status}"`);
    filters.status = flags.status;
  }
  if (flags.version !== undefined) {
    if (!/^\d{1,9}$/.test(flags.version)) throw new UsageError(`--version takes a version number, not "${flags.version}"`);
    filters.version = flags.version;
  }
  if (flags.kind !== undefined) {
    if (!KINDS.includes(flags.kind)) throw new UsageError(`--kind is one of ${KINDS.join(', ')}, not "${flags.kind}"`);
    filters.kind = flags.kind;
  }
  if (flags.install !== undefined) filters.install = flags.install;
  if (flags.delivery !== undefined) filters.delivery = flags.delivery;
  return filters;
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 50;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 500) throw new UsageError(`--limit is a number from 1 to 500, not "${value}"`);
  return n;
}

export async function logsCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  if (positionals.length > 1) throw new UsageError('platform logs takes at most one app');
  if (positionals.length === 1 && flags.app !== undefined) throw new UsageError('Give the app as the argument or as --app, not both');
  const filters = filtersOf(flags);
  const limit = limitOf(flags.limit);
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  if (flags.profile !== undefined && (flags.follow === true || flags.json === true)) throw new UsageError('--profile saves one file; it takes no --follow or --json');
  const printer = createPrinter({
    colour: !flags.json && colourWanted(process.stdout), json: flags.json === true,
    width: process.stdout.isTTY ? process.stdout.columns ?? 120 : null, baseUrl: session.url,
  });
  await reportingFailures(async () => {
    const { appId } = await resolveApp({ cwd: process.cwd(), session, service, app: positionals[0] ?? flags.app });
    if (flags.profile !== undefined) {
      print(`Saved ${await saveProfile(session, appId, flags.profile)} (open it in Chrome DevTools: Performance, Load profile)`);
      return;
    }
    const lines = await recent(session, appId, filters, limit);
    for (const l of [...lines].reverse()) printer.line(l);
    if (lines.length === 0 && !flags.json) note(`No log lines of ${appId}${Object.keys(filters).length > 0 ? ' match these filters' : ' yet'}`);
    if (!flags.follow) return;
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      // From the newest line shown (or the first ever): lines stored meanwhile are replayed, none lost.
      await follow(session, appId, filters, lines[0]?.id ?? '0', controller.signal, printer);
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  });
}
