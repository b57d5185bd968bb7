// Builds `@platform/cli` into cli/dist/, with the runtime pieces `platform dev` needs bundled in,
// so that the published CLI depends on no private package of ours (docs/decisions/packages.md):
//
// - dist/cli.js: the command (src/main.ts); `@platform/sdk` and the other packages stay imports.
// - dist/dev-runtime-<hash>.js: `@platform/runtime/dev` and what it imports of the runtime, a chunk
//   loaded only by hosted `platform dev` (the dynamic import in src/dev-hosted.ts).
// - dist/sandbox-worker.js: the sandbox worker process, self-contained but for isolated-vm.
//
// The runtime builds two pieces from its TypeScript sources when a node starts (the guest runtime
// script and the worker entry); an installed CLI has no sources, so both are built here, once, by the
// runtime's own functions, and the two modules that would build them are replaced in the bundle by
// ones answering the results. isolated-vm's CPU-limit patch sits beside the bundle (the addon's key
// hashes it); in the repository dist/.build links to runtime/native/.build, so `platform dev` run
// from here uses the patched addon `npm ci` compiled (the published package leaves the link out).
//
// Without type stripping (Node < 23.6, e.g. the machine's own Node 20) the runtime cannot be
// imported here; the CLI is then built alone and hosted `platform dev` loads `@platform/runtime/dev`
// from the workspace, as before.
import { build } from 'esbuild';
import { copyFileSync, existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const PATCH = 'isolated-vm-7.0.1-cpu-limit.patch';

/** The packages the CLI's bundle leaves as imports: each must be a dependency of @platform/cli. */
function externalPackages(cliPackage, { only } = {}) {
  return {
    name: 'external-packages',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        if (args.path.startsWith('@platform/runtime')) return undefined;
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        if (only !== undefined && !only.includes(name)) return undefined;
        if (!(name in (cliPackage.dependencies ?? {}))) {
          return { errors: [{ text: `${args.path} (imported by ${args.importer}) is not a dependency of @platform/cli: add it to cli/package.json` }] };
        }
        return { path: args.path, external: true };
      });
    },
  };
}

/** Replaces the modules that build from sources at start with ones answering what was built here. */
function prebuilt(guestSource) {
  const modules = {
    'sandbox/guest-source.ts': `export async function buildGuestSource() { return ${JSON.stringify(guestSource)}; }`,
    'supervisor/worker-entry.ts': [
      "import { fileURLToPath } from 'node:url';",
      "export const SOURCE_ENTRY = fileURLToPath(new URL('./sandbox-worker.js', import.meta.url));",
      'export async function workerEntry() { return { path: SOURCE_ENTRY, bundled: true, problem: null }; }',
    ].join('\n'),
  };
  return {
    name: 'prebuilt-runtime-pieces',
    setup(b) {
      b.onLoad({ filter: /runtime[\\/]src[\\/](sandbox[\\/]guest-source|supervisor[\\/]worker-entry)\.ts$/ }, (args) => {
        const key = Object.keys(modules).find((k) => args.path.replaceAll('\\', '/').endsWith(`runtime/src/${k}`));
        return { contents: modules[key], loader: 'js', resolveDir: join(args.path, '..') };
      });
    },
  };
}

/** dist/.build → runtime/native/.build in the repository (never packed: see cli/package.json `files`). */
function linkNativeBuild(repo, dist) {
  const link = join(dist, '.build');
  // Made even before the addon is built: `prepare` runs this script first, then runtime/native/build.ts.
  const target = join(repo, 'runtime/native/.build');
  try {
    lstatSync(link);
  } catch {
    symlinkSync(target, link, 'dir');
  }
}

export async function buildCli({ repo, common }) {
  const cli = join(repo, 'cli');
  const dist = join(cli, 'dist');
  const cliPackage = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8'));
  const withRuntime = existsSync(join(repo, 'runtime/src/dev.ts')) && Boolean(process.features.typescript);
  if (!withRuntime) {
    await build({ ...common, entryPoints: [join(cli, 'src/main.ts')], outfile: join(dist, 'cli.js') });
    return;
  }
  const { buildGuestSource } = await import(join(repo, 'runtime/src/sandbox/guest-source.ts'));
  const shared = { ...common, packages: undefined, conditions: ['source'], target: 'node24' };
  await build({
    ...shared, entryPoints: { cli: join(cli, 'src/main.ts') }, outdir: dist, splitting: true, chunkNames: 'dev-runtime-[hash]',
    plugins: [externalPackages(cliPackage), prebuilt(await buildGuestSource())],
  });
  // The worker runs in a process of its own (started with `--conditions=source`, which the published
  // SDK cannot answer: it ships no sources): everything but the native addon is inside it.
  await build({
    ...shared, entryPoints: [join(repo, 'runtime/src/sandbox/worker-main.ts')], outfile: join(dist, 'sandbox-worker.js'),
    plugins: [externalPackages(cliPackage, { only: ['isolated-vm'] })],
  });
  copyFileSync(join(repo, 'runtime/native', PATCH), join(dist, PATCH));
  linkNativeBuild(repo, dist);
}
