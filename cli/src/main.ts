/**
 * @module cli/main
 * The `platform` command: one row per subcommand in `COMMANDS`. Each takes its arguments and runs
 * until done; a `UsageError` prints the problem and the usage, anything else its message.
 */
import { pathToFileURL } from 'node:url';
import { UsageError } from './args.ts';
import { devCommand } from './dev.ts';
import { loginCommand } from './login.ts';
import { buildCommand } from './build.ts';
import { deployCommand } from './deploy.ts';
import { envCommand } from './env.ts';
import { checkCommand } from './check.ts';

interface Command {
  summary: string;
  run(argv: readonly string[]): Promise<void>;
}

export const COMMANDS: Record<string, Command> = {
  login: { summary: 'Check a member API key with the service and store it (--url, --key or stdin)', run: (argv) => loginCommand(argv) },
  build: { summary: 'Bundle the app (at most 10 MB) and print the manifest its code computes', run: (argv) => buildCommand(argv) },
  deploy: { summary: 'Build and record a version: a preview, or production with --production', run: (argv) => deployCommand(argv) },
  env: { summary: 'Environment variables of the app: env set KEY=VALUE, env list, env delete KEY', run: (argv) => envCommand(argv) },
  check: { summary: 'Validate a block tree file (with the service, or --local)', run: (argv) => checkCommand(argv) },
  dev: { summary: 'Sync your development app and relay its deliveries to the app on localhost', run: (argv) => devCommand(argv) },
};

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return ['Usage: platform <command> [options]', '', 'Commands:', ...rows].join('\n');
}

/**
 * Runs the CLI; answers the process exit code.
 * @example process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined) {
    // Asked-for help goes to stdout (so `platform --help | less` works); a wrong command to stderr.
    if (name === undefined || name === '--help') console.log(usage());
    else console.error(`Unknown command "${name}"\n\n${usage()}`);
    return name === undefined || name === '--help' ? 0 : 2;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${usage()}`);
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
