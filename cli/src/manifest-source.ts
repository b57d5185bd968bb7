/**
 * @module cli/manifest-source
 * Where `platform dev` reads the app's manifest: a JSON file (`--manifest`), or the app module
 * itself (`--app`, the default `app.ts`/`app.js`/`app.mjs` in the current directory): its default
 * export (or export `app`) is what `defineApp` returned, whose `manifest` is computed from the code.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from './args.ts';

const DEFAULT_MODULES = ['app.ts', 'app.mjs', 'app.js'];

/**
 * @example const manifest = await loadManifest({ manifest: 'manifest.json' });
 */
export async function loadManifest(options: { manifest?: string | undefined; app?: string | undefined; cwd?: string }): Promise<Record<string, unknown>> {
  const cwd = options.cwd ?? process.cwd();
  if (options.manifest !== undefined) {
    const text = await readFile(resolve(cwd, options.manifest), 'utf8');
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${options.manifest} does not hold a JSON object`);
    return parsed as Record<string, unknown>;
  }
  const file = options.app ?? DEFAULT_MODULES.find((name) => existsSync(resolve(cwd, name)));
  if (file === undefined) throw new UsageError('No app found: give the app module (platform dev app.ts) or --manifest <file.json>');
  const mod = (await import(pathToFileURL(resolve(cwd, file)).href)) as { default?: unknown; app?: unknown };
  const app = (mod.default ?? mod.app) as { manifest?: unknown } | undefined;
  const manifest = app?.manifest;
  if (manifest === null || typeof manifest !== 'object') throw new UsageError(`${file} does not export an app (export default defineApp({ ... }))`);
  return JSON.parse(JSON.stringify(manifest)) as Record<string, unknown>;
}
