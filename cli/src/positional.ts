/**
 * @module cli/positional
 * Commands such as `platform build [entry]` and `platform env set KEY=VALUE` take plain arguments
 * beside their flags. This splits them out and leaves the flags to `parseFlags` (args.ts), so
 * flags keep one reader and its errors.
 */
import { parseFlags, type FlagSpec, type Flags } from './args.ts';

/**
 * @example
 * splitArgs(['app.ts', '--outfile', 'out.js'], { outfile: 'string' }) // { positionals: ['app.ts'], flags: { outfile: 'out.js' } }
 */
export function splitArgs<S extends FlagSpec>(argv: readonly string[], spec: S): { positionals: string[]; flags: Flags<S> } {
  const positionals: string[] = [];
  const flagArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    flagArgs.push(arg);
    // A string flag written `--name value` takes the next argument along, whatever it looks like.
    if (!arg.includes('=') && spec[arg.slice(2)] === 'string' && i + 1 < argv.length) flagArgs.push(argv[++i]!);
  }
  return { positionals, flags: parseFlags(flagArgs, spec) };
}
