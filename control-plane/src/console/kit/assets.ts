/**
 * @module console/kit/assets
 * The console's stylesheet (assets/console.css) and client script (browser/, bundled to
 * control-plane/dist/console/console.js by `npm ci`'s prepare script, scripts/build-packages.mjs).
 * Each is served under a name carrying its content hash with a year-long immutable cache: a new
 * build is a new URL, so no browser keeps an old script. Without a build the pages still render
 * and read (everything is server-rendered); only the in-place updates need the script.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';

interface Asset {
  name: string;
  type: string;
  body: string;
}

export interface Assets {
  css: string;
  js: string | null;
}

const CSS = fileURLToPath(new URL('../assets/console.css', import.meta.url));
export const CLIENT_SCRIPT = fileURLToPath(new URL('../../../dist/console/console.js', import.meta.url));

function load(path: string, ext: string, type: string): Asset | null {
  let body: string;
  try {
    body = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { name: `console.${hash}.${ext}`, type, body };
}

/**
 * Registers `/console/assets/{name}` and answers the URLs pages link to.
 * @example
 * const assets = registerAssets(router);
 * html`<link rel="stylesheet" href="${assets.css}">`
 */
export function registerAssets(router: Hono<any>, paths: { css?: string; js?: string } = {}): Assets {
  const files = [load(paths.css ?? CSS, 'css', 'text/css; charset=utf-8'), load(paths.js ?? CLIENT_SCRIPT, 'js', 'text/javascript; charset=utf-8')];
  const byName = new Map(files.filter((f): f is Asset => f !== null).map((f) => [f.name, f]));
  router.get('/assets/:name', (c) => {
    const asset = byName.get(c.req.param('name'));
    if (asset === undefined) return c.json({ _tag: 'ConsoleAssetNotFoundError', message: 'No such asset (built assets carry their hash in the name)', path: [] }, 404);
    c.header('cache-control', 'public, max-age=31536000, immutable');
    c.header('content-type', asset.type);
    c.header('x-content-type-options', 'nosniff');
    return c.body(asset.body);
  });
  return { css: `/console/assets/${files[0]?.name ?? 'missing.css'}`, js: files[1] === null ? null : `/console/assets/${files[1]!.name}` };
}
