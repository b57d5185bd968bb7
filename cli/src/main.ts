/**
 * @module cli/main
 * The `platform` command: one row per subcommand in `COMMANDS`, each with its usage text. Help is
 * answered here for every command (`platform <command> --help`, `-h`, `platform help <command>`:
 * the usage on stdout, exit 0), so no command can forget it; `platform --version` prints the
 * CLI's version. A `UsageError` prints the problem and the command's usage (exit 2), anything else
 * its message (exit 1).
 */
import { pathToFileURL } from 'node:url';
import cliPackage from '../package.json' with { type: 'json' };
import { UsageError, wantsHelp } from './args.ts';
import { DEV_USAGE, devCommand } from './dev.ts';
import { INIT_USAGE, initCommand } from './init.ts';
import { LOGIN_USAGE, loginCommand } from './login.ts';
import { BUILD_USAGE, buildCommand } from './build.ts';
import { DEPLOY_USAGE, deployCommand } from './deploy.ts';
import { ENV_USAGE, envCommand } from './env.ts';
import { STORAGE_USAGE, storageCommand } from './storage.ts';
import { CHECK_USAGE, checkCommand } from './check.ts';
import { LOGS_USAGE, logsCommand } from './logs.ts';
import { ERRORS_USAGE, errorsCommand } from './errors.ts';
import { DRAINS_USAGE, drainsCommand } from './drains.ts';
import { VERSIONS_USAGE, versionsCommand } from './versions.ts';
import { ROLLBACK_USAGE, rollbackCommand } from './rollback.ts';
import { ROLLOUT_USAGE, rolloutCommand } from './rollout.ts';
import { REPLAY_USAGE, replayCommand } from './replay.ts';
import { SCHEDULES_USAGE, schedulesCommand } from './schedules.ts';
import { QUEUE_USAGE, queueCommand } from './queue.ts';

interface Command {
  summary: string;
  usage: string;
  run(argv: readonly string[]): Promise<void>;
}

export const COMMANDS: Record<string, Command> = {
  init: { summary: 'Create a project in a new folder: --template hosted (default), self-hosted or mcp', usage: INIT_USAGE, run: (argv) => initCommand(argv) },
  login: { summary: 'Check a member API key with the service and store it (--url, --key or stdin)', usage: LOGIN_USAGE, run: loginCommand },
  build: { summary: 'Bundle the app (at most 10 MB) and print the manifest its code computes', usage: BUILD_USAGE, run: buildCommand },
  deploy: { summary: 'Build and record a version: a preview, or production with --production', usage: DEPLOY_USAGE, run: deployCommand },
  env: { summary: 'Environment variables of the app: env set KEY=VALUE, env list, env delete KEY', usage: ENV_USAGE, run: envCommand },
  storage: { summary: 'The app\'s storage (the development install\'s by default): storage get|set|list|delete', usage: STORAGE_USAGE, run: storageCommand },
  check: { summary: 'Validate a block tree file (with the service, or --local)', usage: CHECK_USAGE, run: checkCommand },
  dev: { summary: 'Sync your development app and relay its deliveries to the app on localhost', usage: DEV_USAGE, run: (argv) => devCommand(argv) },
  logs: { summary: 'A hosted app\'s log lines (--follow to stream them live)', usage: LOGS_USAGE, run: logsCommand },
  errors: { summary: 'The app\'s errors grouped by kind: how often, where in your source, on which versions', usage: ERRORS_USAGE, run: errorsCommand },
  drains: { summary: 'The app\'s log drains (HTTPS endpoints receiving its log lines): drains add|list|remove|test|rotate|enable', usage: DRAINS_USAGE, run: drainsCommand },
  versions: { summary: 'List the app\'s versions: target, when, manifest digest, what each adds in access', usage: VERSIONS_USAGE, run: versionsCommand },
  rollback: { summary: 'Serve an earlier production version again (consent rules as for any publish)', usage: ROLLBACK_USAGE, run: rollbackCommand },
  rollout: { summary: 'A gradual rollout (deploy --production --rollout N): rollout status|advance|promote|abort', usage: ROLLOUT_USAGE, run: rolloutCommand },
  replay: { summary: 'Run a recorded delivery again against a preview, read-only, beside its recorded answer', usage: REPLAY_USAGE, run: replayCommand },
  schedules: { summary: 'The app\'s schedules (next and last firing, outcome); schedules run <name> fires one now', usage: SCHEDULES_USAGE, run: schedulesCommand },
  queue: { summary: 'The app\'s queue: queue send <json>, queue depth, queue dead (dead letters)', usage: QUEUE_USAGE, run: queueCommand },
};

/** The version of `@platform/cli` (bundled into `dist/cli.js` by the build). */
export const VERSION: string = cliPackage.version;

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return [
    'Usage: platform <command> [options]', '', 'Commands:', ...rows, '',
    'Options of every command that calls the service: --url <service URL>, --key <API key>',
    '(else PLATFORM_URL and PLATFORM_API_KEY, else what platform login stored).',
    'platform <command> --help explains a command; platform --version prints the version.',
  ].join('\n');
}

/**
 * Runs the CLI; answers the process exit code.
 * @example process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    console.log(VERSION);
    return 0;
  }
  // Asked-for help goes to stdout (so `platform --help | less` works); a wrong command to stderr.
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(usage());
    return 0;
  }
  if (name === 'help') {
    const topic = rest[0] === undefined ? undefined : COMMANDS[rest[0]];
    if (rest[0] !== undefined && topic === undefined) {
      console.error(`Unknown command "${rest[0]}"\n\n${usage()}`);
      return 2;
    }
    console.log(topic?.usage ?? usage());
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    console.error(`Unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    console.log(command.usage);
    return 0;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${command.usage}`);
      return 2;
    }
    console.error((err as Error).message);
    return 1;
  }
}

// Run when executed directly (the built `dist/cli.js` or `node cli/src/main.ts`), not when imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
