/**
 * @module cli/env
 * `platform env set|list|delete`: the environment variables of an app's targets
 * (`/v0/apps/{app_id}/env/{target}[/{key}]`). Values are secret (write-only) unless `--plain`;
 * `env set KEY` without `=VALUE` reads the value from a hidden prompt or stdin, so a secret never
 * has to sit on the command line.
 */
import { LIMITS } from '@platform/sdk';
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { print, reportingFailures } from './output.ts';
import { readSecret } from './prompt.ts';
import { resolveApp } from './project.ts';
import { createServiceClient, type Target } from './service.ts';

export const ENV_USAGE = `Usage: platform env set KEY=VALUE [--secret | --plain] [--target preview|production] [--app <app id or slug>]
       platform env set KEY [...]            (reads the value from a prompt or stdin)
       platform env list [--target preview|production] [--app …]
       platform env delete KEY [--target preview|production] [--app …]

Variables belong to one target: preview (the default) or production. Values are secret
(write-only, never listed) unless --plain. The app is --app, else the one platform.json records.
Every form takes --url <service URL> and --key <API key>.`;

const OPTIONS = { target: { type: 'string' }, secret: { type: 'boolean' }, plain: { type: 'boolean' }, app: { type: 'string' }, ...SERVICE_OPTIONS } as const;
const TARGETS: readonly Target[] = ['preview', 'production'];

function targetOf(value: string | undefined): Target | undefined {
  if (value === undefined) return undefined;
  if (!(TARGETS as readonly string[]).includes(value)) throw new UsageError(`--target is preview or production, not "${value}"`);
  return value as Target;
}

function checkKey(key: string): string {
  if (!LIMITS.identifiers.envVarKey.test(key)) throw new UsageError(`"${key}" is not a variable name: a letter or _, then up to 63 letters, digits or _`);
  return key;
}

/**
 * @example await envCommand(['set', 'REGION=eu-west', '--plain', '--target', 'production']);
 */
export async function envCommand(argv: readonly string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === undefined || action === 'help') return print(ENV_USAGE);
  const { positionals, flags } = parseCommandArgs(rest, OPTIONS);
  if (flags.secret && flags.plain) throw new UsageError('--secret and --plain exclude each other');
  const target = targetOf(flags.target);
  const cwd = process.cwd();
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });

  const one = (what: string) => {
    if (positionals.length !== 1) throw new UsageError(`platform env ${action} takes ${what}`);
    return positionals[0]!;
  };

  switch (action) {
    case 'set': {
      const arg = one('one KEY=VALUE (or KEY, with the value on stdin)');
      const eq = arg.indexOf('=');
      const key = checkKey(eq === -1 ? arg : arg.slice(0, eq));
      const value = eq === -1 ? await readSecret(`Value of ${key}: `, { trim: false }) : arg.slice(eq + 1);
      const secret = flags.plain ? false : flags.secret ? true : undefined;
      await reportingFailures(async () => {
        const { appId } = await resolveApp({ cwd, session, service, app: flags.app });
        const t = target ?? 'preview';
        const saved = await service.setEnv(appId, t, key, { value, ...(secret === undefined ? {} : { secret }) });
        print(`Set ${saved.key} for ${t} of ${appId} (${saved.secret ? 'secret: its value is never shown again' : 'plain'})`);
      });
      return;
    }
    case 'list': {
      if (positionals.length > 0) throw new UsageError('platform env list takes no arguments');
      await reportingFailures(async () => {
        const { appId } = await resolveApp({ cwd, session, service, app: flags.app });
        for (const t of target === undefined ? TARGETS : [target]) {
          const { items } = await service.listEnv(appId, t);
          print(`${t} (${items.length})`);
          for (const item of items) print(`  ${item.key}${item.secret ? '  (secret)' : ` = ${item.value ?? ''}`}`);
        }
      });
      return;
    }
    case 'delete': {
      const key = checkKey(one('one KEY'));
      await reportingFailures(async () => {
        const { appId } = await resolveApp({ cwd, session, service, app: flags.app });
        const t = target ?? 'preview';
        await service.deleteEnv(appId, t, key);
        print(`Deleted ${key} from ${t} of ${appId}`);
      });
      return;
    }
    default:
      throw new UsageError(`Unknown env action "${action}": set, list or delete`);
  }
}
