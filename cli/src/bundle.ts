/**
 * @module cli/bundle
 * Builds an app's entry into the bundle a runtime node runs: one ES module, no Node built-ins
 * (`platform: 'neutral'` resolves like a Web worker: `worker`/`browser` conditions, then the
 * `browser`, `module` and `main` fields), at most `LIMITS.manifest.hostedBundleBytes`. The size
 * is checked before anything is written or evaluated; a refusal names the inputs that weigh most.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { build, type Message } from 'esbuild';
import { LIMITS } from '@platform/sandbox-lib';
import { formatBytes } from './output.ts';

export const DEFAULT_OUTFILE = '.platform/bundle.js';

export interface BundleOptions {
  /** The app module (its default export is what `defineApp` returned). */
  entry: string;
  /** Where the bundle is written (default `.platform/bundle.js`), relative to `cwd`. */
  outfile?: string | undefined;
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

function formatMessage(m: Message): string {
  const at = m.location === null ? '' : `${m.location.file}:${m.location.line}:${m.location.column}: `;
  const builtin = m.notes.some((n) => n.text.includes('built into node'));
  const notes = (builtin ? [NODE_BUILTIN_HINT] : m.notes.map((n) => n.text)).map((text) => `\n    ${text}`).join('');
  return `  ${at}${m.text}${notes}`;
}

/**
 * @example const { outfile, bytes } = await buildBundle({ entry: 'app.ts' });
 */
export async function buildBundle(options: BundleOptions): Promise<Bundle> {
  const cwd = options.cwd ?? process.cwd();
  const outfile = resolve(cwd, options.outfile ?? DEFAULT_OUTFILE);
  const maxBytes = options.maxBytes ?? LIMITS.manifest.hostedBundleBytes;
  let result;
  try {
    result = await build({
      absWorkingDir: cwd,
      entryPoints: [resolve(cwd, options.entry)],
      outfile,
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      mainFields: ['browser', 'module', 'main'],
      conditions: ['worker', 'browser'],
      // Isolates have no `process`; libraries that branch on NODE_ENV get the production branch.
      define: { 'process.env.NODE_ENV': '"production"' },
      minify: options.minify === true,
      logLevel: 'silent',
    });
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) throw new BuildError(`Build failed:\n${errors.map(formatMessage).join('\n')}`);
    throw err;
  }
  const output = result.outputFiles.find((f) => f.path === outfile) ?? result.outputFiles[0];
  if (output === undefined) throw new BuildError('Build failed: esbuild wrote nothing');
  const bytes = output.contents.byteLength;
  if (bytes > maxBytes) {
    const meta = Object.values(result.metafile.outputs)[0];
    const largest = Object.entries(meta?.inputs ?? {})
      .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
      .slice(0, 5)
      .map(([path, input]) => `  ${formatBytes(input.bytesInOutput).padStart(10)}  ${path}`);
    throw new BuildError([
      `The bundle is ${formatBytes(bytes)} (${bytes} bytes); hosted bundles are at most ${formatBytes(maxBytes)} (${maxBytes} bytes).`,
      ...(largest.length === 0 ? [] : ['Largest inputs:', ...largest]),
      ...(options.minify === true ? [] : ['Try --minify, or leave large dependencies out.']),
    ].join('\n'));
  }
  await mkdir(dirname(outfile), { recursive: true });
  await writeFile(outfile, output.contents);
  return { path: outfile, outfile: relative(cwd, outfile) || outfile, code: output.contents, bytes };
}
