/**
 * @module supervisor/worker-entry
 * The sandbox worker's entry as one ES module, built with esbuild when the node starts and written
 * to its data directory. Why: a worker started from the TypeScript sources resolves and strips some
 * forty files before it is ready, and a worker starts on the recovery path of every crash, on the
 * same cores as the workers serving everyone else. Measured on the 2-core bench machine: from the
 * sources ready in 360–540 ms with 440–660 ms of CPU; from the bundle 220–320 ms with 210–280 ms
 * (Node's own start without its snapshot is ~200 ms of that).
 *
 * Each file's `import.meta.url` is replaced by that file's own URL while bundling, so the bundle
 * finds packages and the native addon exactly as the sources do, wherever it is written. When it
 * cannot be built or written (a read-only data directory), workers start from the sources.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Loader, type Plugin } from 'esbuild';

export const SOURCE_ENTRY = fileURLToPath(new URL('../sandbox/worker-main.ts', import.meta.url));

const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js' };

/** Pins `import.meta.url` in every bundled file to that file's own location. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const contents = text.includes('import.meta.url') ? text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)) : text;
      return { contents, loader: LOADERS[extname(args.path)] ?? 'js' };
    });
  },
};

/** Builds the bundle's text (no file written). */
export async function bundleWorkerEntry(): Promise<string> {
  const result = await build({
    entryPoints: [SOURCE_ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    conditions: ['source'],
    plugins: [ownImportMetaUrl],
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error('esbuild produced no worker entry');
  return code;
}

/**
 * The path workers are started from: the bundle, written once per content under `dir`, or the
 * TypeScript entry (with the reason) when the bundle cannot be had.
 */
export async function workerEntry(dir: string): Promise<{ path: string; bundled: boolean; problem: string | null }> {
  try {
    const code = await bundleWorkerEntry();
    const path = join(dir, `sandbox-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, code, { mode: 0o644 });
    return { path, bundled: true, problem: null };
  } catch (err) {
    return { path: SOURCE_ENTRY, bundled: false, problem: err instanceof Error ? err.message : String(err) };
  }
}
