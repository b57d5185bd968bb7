/**
 * @module sandbox/guest-source
 * Builds the guest runtime (runtime/src/guest, its own tsconfig, no Node types) into one script
 * with esbuild. The script's completion value is the guest's exports object (`{ setup }`); its
 * top-level bindings stay inside a function so nothing leaks onto the guest's global object.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../guest/index.ts', import.meta.url));
const GLOBAL = '__platformGuest';

/**
 * @example
 * const source = await buildGuestSource();
 * await context.eval(source, { reference: true }); // → Reference to { setup }
 */
export async function buildGuestSource(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: GLOBAL,
    platform: 'neutral',
    target: 'es2022',
    // Apps and libraries read constructor names (`Response`, …): identifiers stay unminified and
    // `keepNames` restores names esbuild changes while bundling (it renames `Response` to
    // `_Response` to keep the global reachable).
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error('esbuild produced no guest runtime');
  // esbuild exposes exports as getters; isolated-vm reads plain data properties only.
  return `(function () {\n'use strict';\n${code}\nreturn { setup: ${GLOBAL}.setup };\n})()`;
}
