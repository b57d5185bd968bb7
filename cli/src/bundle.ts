/**
 * @module cli/bundle
 * Builds an app's entry into the bundle a runtime node runs: one ES module, no Node built-ins
 * (`platform: 'neutral'` resolves like a Web worker: `worker`/`browser` conditions, then the
 * `browser`, `module` and `main` fields), at most `LIMITS.manifest.hostedBundleBytes`. The size
 * is checked before anything is written or evaluated; a refusal names the inputs that weigh most.
 * Minified unless asked not to, with a source map written beside it (`bundle.js.map`, as esbuild
 * writes it, for any tool that reads maps); `platform deploy` uploads it with the app's files named
 * as the project names them (`app.ts`, `lib/util.ts`, `node_modules/…`) and without their text, so
 * every stack the author sees names their files, lines and functions.
 * `__PLATFORM_BUNDLE__` is defined `true`: the SDK then leaves the manifest check to this CLI and
 * the service instead of carrying it in the bundle (docs/decisions/authoring.md).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { build, type BuildOptions, type Message } from 'esbuild';
import { LIMITS } from '@platform/sdk';
import { formatBytes } from './output.ts';

export const DEFAULT_OUTFILE = '.platform/bundle.js';

export interface BundleOptions {
  /** The app module (its default export is what `defineApp` returned). */
  entry: string;
  /** Where the bundle is written (default `.platform/bundle.js`), relative to `cwd`. */
  outfile?: string | undefined;
  /** Default true. */
  minify?: boolean | undefined;
  cwd?: string | undefined;
  /** The size limit (default: the spec's 10 MB for hosted bundles). */
  maxBytes?: number;
}

export interface Bundle {
  /** Absolute path of the written bundle. */
  path: string;
  /** The same, relative to the working directory, for messages. */
  outfile: string;
  code: Uint8Array;
  bytes: number;
  minified: boolean;
  /** Absolute path of the source map written beside the bundle. */
  mapPath: string;
  /** The source map as uploaded: the project's file names, without the sources' text. */
  sourceMap: Uint8Array;
  /** Ways to make the bundle smaller that the build noticed. */
  hints: string[];
  /** The modules in the bundle with the bytes each takes, largest first (paths as esbuild names them). */
  inputs: Array<{ path: string; bytes: number }>;
}

/**
 * esbuild cannot leave out what `import { z } from 'zod'` does not use (the `z` namespace object is
 * kept whole, with every locale); `import * as z from 'zod'` (zod 4's own advice) it can.
 */
function sizeHints(inputs: Readonly<Record<string, { bytesInOutput: number }>>): string[] {
  // English is zod's default and stays either way; the others come only with the whole namespace.
  const others = Object.entries(inputs).filter(([path]) => /node_modules\/zod\/v4\/locales\/(?!en\.js$)/.test(path));
  const locales = others.reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  return others.length > 0
    ? [`zod's translations take ${formatBytes(locales)} of it: write import * as z from 'zod' (not import { z } from 'zod') and the bundler leaves them out`]
    : [];
}

/** A build that did not succeed: esbuild's problems, or a bundle over the limit. */
export class BuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildError';
  }
}

// esbuild suggests `platform: 'node'` for Node built-ins; the runtime has no Node, so say that instead.
const NODE_BUILTIN_HINT = 'Hosted apps run in an isolate with Web APIs only (fetch, Request, Response, crypto.subtle, ...): Node built-ins are not available.';

export function formatMessage(m: Message): string {
  const at = m.location === null ? '' : `${m.location.file}:${m.location.line}:${m.location.column}: `;
  const builtin = m.notes.some((n) => n.text.includes('built into node'));
  const notes = (builtin ? [NODE_BUILTIN_HINT] : m.notes.map((n) => n.text)).map((text) => `\n    ${text}`).join('');
  return `  ${at}${m.text}${notes}`;
}

/**
 * The esbuild options of an app bundle (what `buildBundle` builds, and `platform dev` watches).
 * @example await build(esbuildOptions({ cwd, entry: 'app.ts', outfile: '/abs/.platform/bundle.js', minify: true }));
 */
export function esbuildOptions(o: { cwd: string; entry: string; outfile: string; minify: boolean }) {
  return {
    absWorkingDir: o.cwd,
    entryPoints: [resolve(o.cwd, o.entry)],
    outfile: o.outfile,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
    conditions: ['worker', 'browser'],
    // Isolates have no `process`; libraries that branch on NODE_ENV get the production branch.
    // __PLATFORM_BUNDLE__: the SDK skips its define-time manifest check (buildApp runs it right after).
    define: { 'process.env.NODE_ENV': '"production"', __PLATFORM_BUNDLE__: 'true' },
    minify: o.minify,
    // Linked: the bundle ends with a sourceMappingURL comment naming bundle.js.map beside it.
    sourcemap: 'linked',
    logLevel: 'silent',
  } as const satisfies BuildOptions;
}

/**
 * The source map as it is uploaded: esbuild names its sources relative to the map's folder
 * (`../app.ts` from `.platform/`), the author knows them relative to the project (`app.ts`), which
 * is how stacks should name them; and without `sourcesContent`: mapping a position needs none of it
 * (the runtime drops it), it is most of the map's size, and the service keeps no copy of the app's
 * source text.
 * @example uploadedSourceMap(mapText, { cwd: '/work/hello', outfile: '/work/hello/.platform/bundle.js' })
 */
export function uploadedSourceMap(mapText: string, o: { cwd: string; outfile: string }): Uint8Array {
  const { sourcesContent: _content, ...map } = JSON.parse(mapText) as { sources?: unknown; sourcesContent?: unknown };
  if (Array.isArray(map.sources)) {
    const from = dirname(o.outfile);
    map.sources = map.sources.map((s: unknown) => (typeof s === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(s) ? relative(o.cwd, resolve(from, s)).split(sep).join('/') : s));
  }
  return new TextEncoder().encode(JSON.stringify(map));
}

/**
 * @example const { outfile, bytes } = await buildBundle({ entry: 'app.ts' });
 */
export async function buildBundle(options: BundleOptions): Promise<Bundle> {
  const cwd = options.cwd ?? process.cwd();
  const outfile = resolve(cwd, options.outfile ?? DEFAULT_OUTFILE);
  const maxBytes = options.maxBytes ?? LIMITS.manifest.hostedBundleBytes;
  const minify = options.minify !== false;
  let result;
  try {
    result = await build(esbuildOptions({ cwd, entry: options.entry, outfile, minify }));
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) throw new BuildError(`Build failed:\n${errors.map(formatMessage).join('\n')}`);
    throw err;
  }
  const output = result.outputFiles.find((f) => f.path === outfile);
  const map = result.outputFiles.find((f) => f.path === `${outfile}.map`);
  if (output === undefined || map === undefined) throw new BuildError('Build failed: esbuild wrote nothing');
  const bytes = output.contents.byteLength;
  const meta = Object.entries(result.metafile.outputs).find(([path]) => !path.endsWith('.map'))?.[1];
  if (bytes > maxBytes) {
    const largest = Object.entries(meta?.inputs ?? {})
      .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
      .slice(0, 5)
      .map(([path, input]) => `  ${formatBytes(input.bytesInOutput).padStart(10)}  ${path}`);
    throw new BuildError([
      `The bundle is ${formatBytes(bytes)} (${bytes} bytes); hosted bundles are at most ${formatBytes(maxBytes)} (${maxBytes} bytes).`,
      ...(largest.length === 0 ? [] : ['Largest inputs:', ...largest]),
      ...(minify ? [] : ['Try without --no-minify, or leave large dependencies out.']),
    ].join('\n'));
  }
  await mkdir(dirname(outfile), { recursive: true });
  await writeFile(outfile, output.contents);
  await writeFile(map.path, map.contents);
  return {
    path: outfile, outfile: relative(cwd, outfile) || outfile, code: output.contents, bytes, minified: minify, mapPath: map.path,
    sourceMap: uploadedSourceMap(map.text, { cwd, outfile }),
    hints: sizeHints(meta?.inputs ?? {}),
    inputs: Object.entries(meta?.inputs ?? {}).map(([path, input]) => ({ path, bytes: input.bytesInOutput })).sort((a, b) => b.bytes - a.bytes),
  };
}
