// Builds our packages to plain JavaScript so that they work from any Node (the machine's own
// Node 20 included) right after `npm ci`: `@platform/sdk` for `import ... from
// '@platform/sdk'` in app projects, and `@platform/cli` for the `platform` bin.
// Our own processes run the TypeScript sources directly (Node 24 strips types, `--conditions=source`).
// `--declarations` also writes the type declarations of the published packages (declarations.mjs;
// `npm run pack` passes it; the root `prepare` does not: the container image installs without tsc).
//
// sandbox-lib is built module by module (dist/ mirrors src/, relative imports point at the .js
// twins) rather than into one file: with `"sideEffects": false` in its package.json, an app's
// bundler then leaves out every module the app does not reach (the zod schemas, the manifest
// validator, the public suffix list), which a single pre-bundled file would not allow.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));

/** Every `.ts` file under `dir`. */
const sources = (dir) => readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));

/** Relative imports stay imports, of the built `.js` file next door. */
const keepModules = {
  name: 'keep-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path.replace(/\.ts$/, '.js'), external: true }));
  },
};

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };

const sandboxLib = join(repo, 'sandbox-lib');
// dist/ is overwritten in place, not emptied first: tests run this script while others read dist/.
if (existsSync(join(sandboxLib, 'src/index.ts'))) {
  await build({ ...common, entryPoints: sources(join(sandboxLib, 'src')), outbase: join(sandboxLib, 'src'), outdir: join(sandboxLib, 'dist'), plugins: [keepModules] });
  removeOrphans(join(sandboxLib, 'dist'), join(sandboxLib, 'src'));
}

/**
 * Files left in `dist` by a module that has since moved or gone (`.js`, `.js.map`, `.d.ts`): nothing
 * imports them, but `npm pack` would publish them. Removed after the build, one by one, so a reader
 * of dist/ during the build never misses a live file.
 */
function removeOrphans(dist, src) {
  if (!existsSync(dist)) return;
  for (const file of readdirSync(dist, { recursive: true })) {
    const twin = String(file).replace(/\.(js|js\.map|d\.ts|d\.ts\.map)$/, '.ts');
    if (twin === String(file)) continue;
    if (!existsSync(join(src, twin))) rmSync(join(dist, String(file)), { force: true });
  }
}

// The console's client script (control-plane/src/console/browser), one file for browsers; the
// control plane serves it under a name carrying its hash (control-plane/src/console/kit/assets.ts).
const consoleScript = join(repo, 'control-plane/src/console/browser/console.ts');
if (existsSync(consoleScript)) {
  await build({ entryPoints: [consoleScript], outfile: join(repo, 'control-plane/dist/console/console.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, sourcemap: false, logLevel: 'warning' });
}

// The container image has no CLI (it runs the servers); build it where it is. `@platform/sdk` and
// the other dependencies stay imports of their packages, read at run time; the runtime pieces
// `platform dev` needs are bundled in (cli-runtime.mjs), so the published CLI needs no private package.
const cli = join(repo, 'cli');
if (existsSync(join(cli, 'src/main.ts'))) {
  const { buildCli } = await import('./cli-runtime.mjs');
  await buildCli({ repo, common });
}

if (process.argv.includes('--declarations')) await import('./declarations.mjs').then((m) => m.buildDeclarations(repo));
