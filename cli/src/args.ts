/**
 * @module cli/args
 * A small flag reader for the CLI: `--name value`, `--name=value` and boolean `--flag`. Unknown
 * flags are errors, so a typo never silently changes what a command does.
 */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type FlagSpec = Record<string, 'string' | 'boolean'>;
export type Flags<S extends FlagSpec> = { [K in keyof S]?: S[K] extends 'string' ? string : boolean };

/**
 * @example parseFlags(['--manifest', 'app.json', '--once'], { manifest: 'string', once: 'boolean' }) // { manifest: 'app.json', once: true }
 */
export function parseFlags<S extends FlagSpec>(argv: readonly string[], spec: S): Flags<S> {
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`Unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const kind = spec[name];
    if (kind === undefined) throw new UsageError(`Unknown option --${name}`);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      out[name] = true;
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    out[name] = value;
  }
  return out as Flags<S>;
}
