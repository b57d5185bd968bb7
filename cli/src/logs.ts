/**
 * @module cli/logs
 * `platform logs [app] [--follow]`: a hosted app's log lines (`GET /v0/apps/{app_id}/logs`), oldest
 * of the last `--limit` first, then, with `--follow`, the live stream (`…/logs/stream`, server-sent
 * events) from the newest line shown on, until interrupted; a dropped stream is reopened from the
 * last line seen. Filters: `--status`, `--version`, `--kind`, `--install`. Lines are coloured by
 * level on a terminal (never with NO_COLOR or when piped), stacks kept to their first lines, and
 * each line cut at the terminal's width; `--json` prints each line as the API answers it, whole.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { styleText } from 'node:util';
import { ErrorBodySchema, PlatformClientError } from '@platform/sandbox-lib';
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession, type Session } from './config-store.ts';
import { note, print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient } from './service.ts';

export const LOGS_USAGE = `Usage: platform logs [app] [--follow] [--status ok|error] [--version N] [--kind KIND]
                     [--install ID] [--limit N] [--json]
       platform logs [app] --profile LINE_ID   (saves the line's CPU profile as a .cpuprofile file)

Shows a hosted app's log lines: console output, uncaught errors with their stacks, limit events
(CPU, memory, deadline, blocked egress, quarantine) and one line per request (route or delivery
type, status, CPU ms, wall ms, outbound calls). The app is the argument (an app id or slug), else
--app, else the one platform.json records.

  -f, --follow      keep the stream open and print lines as they arrive (Ctrl-C ends it)
  --status S        ok, or error: lines of failed requests, and error and limit lines
  --version N       lines of version N only
  --kind K          route, mcp, interactive, command or lifecycle
  --install ID      lines of one install's deliveries
  --limit N         how many recent lines to show first (default 50, at most 500)
  --json            one JSON object per line, as the API answers it (nothing cut)
  --profile ID      save the CPU profile of a request stopped at its CPU budget (the line that
                    says so links it) to <app>-<ID>.cpuprofile here; open it in Chrome DevTools

Also --url <service URL> and --key <API key>. Colour only on a terminal; NO_COLOR turns it off.`;

const OPTIONS = {
  follow: { type: 'boolean', aliases: ['f'] }, status: { type: 'string' }, version: { type: 'string' }, kind: { type: 'string' },
  install: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, app: { type: 'string' }, profile: { type: 'string' }, ...SERVICE_OPTIONS,
} as const;

const KINDS = ['route', 'mcp', 'interactive', 'command', 'lifecycle'];

export interface LogLine {
  id: string;
  at: string;
  version: number | null;
  kind: string;
  level: string;
  status: 'ok' | 'error';
  message: string;
  requestId: string | null;
  deliveryId: string | null;
  installId: string | null;
  request: { label: string; outcome: string; httpStatus: number | null; cpuMs: number; wallMs: number; outbound: number } | null;
  /** The path of the line's CPU profile download, or null. */
  profile?: string | null;
}

interface Filters { status?: string; version?: string; kind?: string; install?: string }

function filtersOf(flags: { status?: string | undefined; version?: string | undefined; kind?: string | undefined; install?: string | undefined }): Filters {
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
  return filters;
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 50;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 500) throw new UsageError(`--limit is a number from 1 to 500, not "${value}"`);
  return n;
}

// ---- output -------------------------------------------------------------------------------------

type Style = Parameters<typeof styleText>[0];

export interface Printer {
  line(l: LogLine): void;
}

/** Colour on a terminal only, and never with NO_COLOR set (https://no-color.org). */
export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

const LEVEL_STYLE: Record<string, Style> = { error: 'red', limit: ['red', 'bold'], warn: 'yellow', debug: 'gray', info: 'cyan', log: 'reset' };
const STACK_LINES = 12;

/**
 * A message as lines: a stack logged inside an object arrives with its line breaks escaped
 * (`{ error: { stack: "Error: boom\n    at …" } }`); those are shown as the lines they are.
 */
function messageLines(message: string): string[] {
  const text = /\\n\s+at /.test(message) ? message.replace(/\\n/g, '\n') : message;
  return text.split('\n');
}

/** `12:01:02.345 v3 route  ERROR  message` with the stack below, indented. */
export function createPrinter(options: { colour: boolean; json: boolean; width: number | null; baseUrl?: string; write?: (text: string) => void }): Printer {
  const write = options.write ?? print;
  const paint = (style: Style, text: string) => (options.colour ? styleText(style, text, { validateStream: false }) : text);
  const cut = (text: string, room: number | null) => (room !== null && text.length > room ? `${text.slice(0, Math.max(1, room - 1))}…` : text);
  return {
    line(l) {
      if (options.json) return write(JSON.stringify(l));
      const time = l.at.slice(11, 23);
      const prefix = `${time} ${l.version === null ? '  ' : `v${l.version}`} ${l.kind.padEnd(11)} `;
      const level = l.level === 'request' ? (l.status === 'error' ? 'FAIL' : 'REQ') : l.level.toUpperCase();
      const style: Style = l.level === 'request' ? (l.status === 'error' ? 'red' : 'green') : LEVEL_STYLE[l.level] ?? 'reset';
      const [first = '', ...rest] = messageLines(l.message);
      const room = options.width === null ? null : options.width - prefix.length - 7;
      write(`${paint('gray', prefix)}${paint(style, level.padEnd(6))} ${cut(first, room)}`);
      const shown = rest.slice(0, STACK_LINES);
      for (const more of shown) write(paint('gray', `    ${cut(more.trimStart(), options.width === null ? null : options.width - 4)}`));
      if (rest.length > shown.length) write(paint('gray', `    … ${rest.length - shown.length} more lines (--json shows them)`));
      if (typeof l.profile === 'string') write(paint('cyan', `    CPU profile: platform logs --profile ${l.id}  (${options.baseUrl ?? ''}${l.profile})`));
    },
  };
}

// ---- the service --------------------------------------------------------------------------------

async function failure(res: Response, what: string): Promise<PlatformClientError> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body = ErrorBodySchema.safeParse(json);
  if (body.success) return new PlatformClientError(body.data._tag, res.status, body.data.message, { body: json, path: body.data.path });
  return new PlatformClientError('PlatformClientHttpError', res.status, `${what} answered ${res.status}`, { body: json ?? text.slice(0, 1000) });
}

async function call(session: Session, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(session.url + path, { ...init, headers: { authorization: `Bearer ${session.apiKey}`, ...init.headers } });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    const cause = (err as Error & { cause?: Error }).cause;
    throw new PlatformClientError('PlatformClientNetworkError', 0, `Could not reach ${session.url}: ${cause?.message ?? (err as Error).message}`, { cause: err });
  }
}

async function recent(session: Session, appId: string, filters: Filters, limit: number): Promise<LogLine[]> {
  const query = new URLSearchParams({ ...filters, limit: String(limit) });
  const path = `/v0/apps/${encodeURIComponent(appId)}/logs?${query}`;
  const res = await call(session, path, { headers: { accept: 'application/json' } });
  if (!res.ok) throw await failure(res, `GET ${path}`);
  return ((await res.json()) as { items: LogLine[] }).items;
}

/** Reads one stream until it ends; each `line` event goes to `onLine`. */
async function readStream(session: Session, appId: string, filters: Filters, after: string | null, signal: AbortSignal, on: { line(l: LogLine): void; ready(): void }): Promise<void> {
  const query = new URLSearchParams({ ...filters, ...(after === null ? {} : { after }) });
  const path = `/v0/apps/${encodeURIComponent(appId)}/logs/stream?${query}`;
  const res = await call(session, path, { headers: { accept: 'text/event-stream' }, signal });
  if (!res.ok || res.body === null) throw await failure(res, `GET ${path}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const field of block.split('\n')) {
        if (field.startsWith('event:')) event = field.slice(6).trim();
        else if (field.startsWith('data:')) data.push(field.slice(5).replace(/^ /, ''));
      }
      if (event === 'line') on.line(JSON.parse(data.join('\n')) as LogLine);
      else if (event === 'ready') on.ready();
    }
  }
}

/** Follows the stream until `signal` aborts; a stream that drops is reopened after the last line seen. */
async function follow(session: Session, appId: string, filters: Filters, after: string, signal: AbortSignal, printer: Printer): Promise<void> {
  let last = after;
  let failures = 0;
  let told = false;
  while (!signal.aborted) {
    try {
      await readStream(session, appId, filters, last, signal, {
        line(l) {
          last = l.id;
          failures = 0;
          printer.line(l);
        },
        ready() {
          if (!told) note(`Following the logs of ${appId} (Ctrl-C ends)`);
          told = true;
        },
      });
    } catch (err) {
      if (signal.aborted) return;
      // Refusals (a 4xx: no such app, a revoked key) will not get better by waiting.
      if (err instanceof PlatformClientError && err.status >= 400 && err.status < 500) throw err;
      if (++failures > 5) throw err;
    }
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, Math.min(10_000, 500 * 2 ** failures));
      signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
    });
  }
}

/** Saves a line's CPU profile in the working directory; the file's name. */
async function saveProfile(session: Session, appId: string, lineId: string): Promise<string> {
  if (!/^\d{1,15}$/.test(lineId)) throw new UsageError(`--profile takes a log line id (digits), not "${lineId}"`);
  const path = `/v0/apps/${encodeURIComponent(appId)}/logs/${lineId}/profile`;
  const res = await call(session, path);
  if (!res.ok) throw await failure(res, `GET ${path}`);
  const file = `${appId}-${lineId}.cpuprofile`;
  await writeFile(join(process.cwd(), file), Buffer.from(await res.arrayBuffer()));
  return file;
}

/**
 * @example await logsCommand(['my-app', '--follow', '--status', 'error']);
 */
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
