/**
 * @module cli/build
 * `platform build [entry] [--outfile <file>] [--no-minify]`: bundles the app (bundle.ts), refuses a
 * bundle over 10 MB, reads the manifest its code computes (read-manifest.ts), prints its summary
 * and checks it with `validateManifest`. Exit 1 when the build, the size or the manifest fails.
 */
import { relative } from 'node:path';
import { LIMITS } from '@platform/sdk';
import { parseCommandArgs, UsageError } from './args.ts';
import { buildBundle, DEFAULT_OUTFILE, type Bundle } from './bundle.ts';
import { describeManifestError, summarizeManifest } from './manifest-summary.ts';
import { formatBytes, print as say } from './output.ts';
import { DEFAULT_ENTRIES, findEntry } from './project.ts';
import { checkManifestLocally, readBundleManifest } from './read-manifest.ts';

export const BUILD_USAGE = `Usage: platform build [entry] [--outfile <file>] [--no-minify]

Bundles the app module (default: ${DEFAULT_ENTRIES.join(', ')}) into one ES module for the runtime
(${DEFAULT_OUTFILE} unless --outfile), at most ${formatBytes(LIMITS.manifest.hostedBundleBytes)}, and prints the manifest its code computes.
The bundle is minified (--no-minify: not), with its source map beside it (<outfile>.map).`;

/** `--no-minify`, and `--minify`, once needed to minify and now the default (still accepted). */
export const MINIFY_OPTIONS = { minify: { type: 'boolean' }, 'no-minify': { type: 'boolean' } } as const;

/**
 * Whether to minify, from the flags of `MINIFY_OPTIONS`.
 * @example minifyFrom({ 'no-minify': true }) // false
 */
export function minifyFrom(flags: { minify?: boolean | undefined; 'no-minify'?: boolean | undefined }): boolean {
  if (flags.minify && flags['no-minify']) throw new UsageError('--minify and --no-minify exclude each other');
  return flags['no-minify'] !== true;
}

export interface BuiltApp {
  bundle: Bundle;
  /** The manifest the code computed, as it is sent to the service. */
  computed: Record<string, unknown>;
  /** The same as the local check read it (defaults applied). */
  manifest: Record<string, unknown>;
}

export class ManifestProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestProblem';
  }
}

/**
 * Builds, reads and checks the app; prints what it built. Throws on any failure.
 * @example const { bundle, manifest } = await buildApp({ entry: 'app.ts', cwd: process.cwd() });
 */
export async function buildApp(options: {
  entry?: string | undefined; outfile?: string | undefined; minify?: boolean | undefined; cwd: string;
  /** Where the report lines go (default: stdout). */
  say?: (line: string) => void;
}): Promise<BuiltApp> {
  const print = options.say ?? say;
  const entry = findEntry(options.entry, options.cwd);
  const bundle = await buildBundle({ entry, outfile: options.outfile, minify: options.minify, cwd: options.cwd });
  const map = relative(options.cwd, bundle.mapPath) || bundle.mapPath;
  print(`Built ${bundle.outfile} from ${entry}: ${formatBytes(bundle.bytes)}${bundle.minified ? ' minified' : ''} (limit ${formatBytes(LIMITS.manifest.hostedBundleBytes)}), source map ${map}`);
  for (const hint of bundle.hints) print(`  hint       ${hint}`);
  const computed = await readBundleManifest(bundle.path, bundle.outfile);
  for (const line of summarizeManifest(computed)) print(line);
  const check = checkManifestLocally(computed);
  if (!check.valid) throw new ManifestProblem(`The manifest is invalid: ${describeManifestError(check.error)}`);
  print('  manifest   valid (checked locally; the service also checks slug, domains and env values)');
  return { bundle, computed, manifest: check.manifest };
}

/**
 * @example await buildCommand(['app.ts', '--no-minify']);
 */
export async function buildCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, { outfile: { type: 'string' }, ...MINIFY_OPTIONS });
  if (positionals.length > 1) throw new UsageError(`platform build takes one entry, got ${positionals.join(' ')}`);
  await buildApp({ entry: positionals[0], outfile: flags.outfile, minify: minifyFrom(flags), cwd: process.cwd() });
}
