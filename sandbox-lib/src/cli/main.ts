/**
 * @module cli/main
 * The `platform` command: one row per subcommand in `COMMANDS`. Each takes its arguments and runs
 * until done; a `UsageError` prints the problem and the usage, anything else its message.
 */
import { pathToFileURL } from 'node:url';
import { UsageError } from './args.ts';
import { devCommand } from './dev.ts';

interface Command {
  summary: string;
  run(argv: readonly string[]): Promise<void>;
}

export const COMMANDS: Record<string, Command> = {
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
    console.error(name === undefined || name === '--help' ? usage() : `Unknown command "${name}"\n\n${usage()}`);
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

// Run when executed directly (the built `dist/cli.js` or `node src/cli/main.ts`), not when imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
