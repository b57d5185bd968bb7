/**
 * @module cli/args
 * How every command reads its arguments: `node:util`'s `parseArgs` splits them into options and
 * plain arguments (`--name value`, `--name=value`, boolean `--flag`, `--` ends the options), and
 * this module holds the rules on top, with our own messages:
 * - an unknown option is an error, so a typo never silently changes what a command does;
 * - a string option needs a non-empty value, and `--url --key x` is refused instead of reading
 *   `--key` as the URL;
 * - an option may have old names (`aliases`) that still work, folded into its current name; giving
 *   both names with different values is an error.
 * `parseArgs` runs with `strict: false` and its tokens are checked here, because its strict-mode
 * errors are worded for programmers (and differ between Node versions).
 */
import { parseArgs } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** Old names that still work (`dev --base-url` for `--url`). */
  readonly aliases?: readonly string[];
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;
export type Flags<S extends OptionSpecs> = { -readonly [K in keyof S]?: S[K]['type'] extends 'string' ? string : boolean };

export interface ParsedArgs<S extends OptionSpecs> {
  flags: Flags<S>;
  positionals: string[];
  /** Old option names that were used, as `[old, current]` (so a command can say the new one). */
  aliasesUsed: Array<[string, string]>;
}

/**
 * `--url` and `--key`: which service and which credential, on every command that calls the service.
 * Without them: `PLATFORM_URL` / `PLATFORM_API_KEY`, then what `platform login` stored.
 */
export const SERVICE_OPTIONS = { url: { type: 'string' }, key: { type: 'string' } } as const satisfies OptionSpecs;

/**
 * @example
 * parseCommandArgs(['app.ts', '--outfile', 'out.js'], { outfile: { type: 'string' } })
 * // { flags: { outfile: 'out.js' }, positionals: ['app.ts'], aliasesUsed: [] }
 */
export function parseCommandArgs<S extends OptionSpecs>(argv: readonly string[], specs: S): ParsedArgs<S> {
  const canonical = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) {
    canonical.set(name, name);
    for (const alias of spec.aliases ?? []) canonical.set(alias, name);
  }
  const options = Object.fromEntries([...canonical].map(([name, target]) => [name, { type: specs[target]!.type }]));
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });

  const flags: Record<string, string | boolean> = {};
  const given = new Map<string, string>();
  const positionals: string[] = [];
  const aliasesUsed: Array<[string, string]> = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const name = canonical.get(token.name);
    if (name === undefined) throw new UsageError(`Unknown option ${token.rawName}`);
    let value: string | boolean;
    if (specs[name]!.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
      value = true;
    } else {
      // Not inline (`--url --key x`): an option-looking value is the next option, not this value.
      if (token.value === undefined || token.value === '' || (!token.inlineValue && token.value.startsWith('-'))) {
        throw new UsageError(`${token.rawName} needs a value`);
      }
      value = token.value;
    }
    const earlier = given.get(name);
    if (earlier !== undefined && earlier !== token.rawName && flags[name] !== value) {
      throw new UsageError(`${earlier} and ${token.rawName} are the same option; give one`);
    }
    if (token.name !== name) aliasesUsed.push([token.rawName, `--${name}`]);
    given.set(name, token.rawName);
    flags[name] = value;
  }
  return { flags: flags as Flags<S>, positionals, aliasesUsed };
}

/**
 * True when the arguments ask for help (`--help` or `-h` before any `--`).
 * @example wantsHelp(['deploy', '--help']) // true
 */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}
