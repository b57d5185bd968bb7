/**
 * @module cli/storage
 * `platform storage get|set|list|delete`: an app's storage (`/v0/apps/{app_id}/storage/{install}/…`),
 * the development install's by default (`--install workspace` for the workspace install's). Values
 * are JSON on the command line and printed as compact JSON, one entry a line.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient } from './service.ts';

export const STORAGE_USAGE = `Usage: platform storage get KEY... [--install dev|workspace] [--app <app id or slug>]
       platform storage set KEY JSON [--expire-in <ms>] [...]
       platform storage list [--prefix P] [--limit N] [...]
       platform storage delete KEY [...]

The development install's data by default (for it, --app names the development app that
platform dev printed); --install workspace for the workspace install's. The app is --app, else the
one platform.json records. Every form takes --url <service URL> and --key <API key>.`;

const OPTIONS = { install: { type: 'string' }, app: { type: 'string' }, prefix: { type: 'string' }, limit: { type: 'string' }, 'expire-in': { type: 'string' }, ...SERVICE_OPTIONS } as const;

type Entry = { key: string; value: unknown; versionstamp: string | null };

function installOf(value: string | undefined): 'dev' | 'workspace' {
  if (value === undefined || value === 'dev') return 'dev';
  if (value === 'workspace') return 'workspace';
  throw new UsageError(`--install is dev or workspace, not "${value}"`);
}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} is a whole number above 0, not "${value}"`);
  return n;
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`The value is JSON: "${text}" is not (quote strings: '"text"')`);
  }
}

const line = (e: Entry) => `${e.key}\t${e.value === null && e.versionstamp === null ? '(absent)' : JSON.stringify(e.value)}`;

/**
 * @example await storageCommand(['set', 'greeting', '"hello"']);
 */
export async function storageCommand(argv: readonly string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === undefined || action === 'help') return print(STORAGE_USAGE);
  const { positionals, flags } = parseCommandArgs(rest, OPTIONS);
  const install = installOf(flags.install);
  const limit = positiveInt('limit', flags.limit);
  const expireIn = positiveInt('expire-in', flags['expire-in']);
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  const appId = async () => (await resolveApp({ cwd: process.cwd(), session, service, app: flags.app })).appId;
  const commit = async (mutation: Record<string, unknown>) => service.storage<{ versionstamp: string }>(await appId(), install, 'commit', { mutations: [mutation] });

  switch (action) {
    case 'get': {
      if (positionals.length === 0) throw new UsageError('platform storage get takes one or more KEYs');
      await reportingFailures(async () => {
        const { entries } = await service.storage<{ entries: Entry[] }>(await appId(), install, 'get', { keys: positionals });
        for (const e of entries) print(line(e));
      });
      return;
    }
    case 'set': {
      if (positionals.length !== 2) throw new UsageError('platform storage set takes KEY and a JSON value');
      const value = jsonOf(positionals[1]!);
      await reportingFailures(async () => {
        const { versionstamp } = await commit({ type: 'set', key: positionals[0], value, ...(expireIn === undefined ? {} : { expireIn }) });
        print(`Set ${positionals[0]!} (versionstamp ${versionstamp})`);
      });
      return;
    }
    case 'list': {
      if (positionals.length > 0) throw new UsageError('platform storage list takes no arguments (use --prefix)');
      await reportingFailures(async () => {
        const page = await service.storage<{ entries: Entry[]; cursor: string | null }>(await appId(), install, 'list', {
          ...(flags.prefix === undefined ? {} : { prefix: flags.prefix }), ...(limit === undefined ? {} : { limit }),
        });
        for (const e of page.entries) print(line(e));
        if (page.cursor !== null) print(`(more: raise --limit or narrow --prefix)`);
      });
      return;
    }
    case 'delete': {
      if (positionals.length !== 1) throw new UsageError('platform storage delete takes one KEY');
      await reportingFailures(async () => {
        await commit({ type: 'delete', key: positionals[0] });
        print(`Deleted ${positionals[0]!}`);
      });
      return;
    }
    default:
      throw new UsageError(`Unknown storage action "${action}": get, set, list or delete`);
  }
}
