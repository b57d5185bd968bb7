// `npm run pack [-- <folder>]`: the tarballs an author installs, `@platform/sdk` and
// `@platform/cli`, written by `npm pack` into <folder> (default dist/packages/). It builds the
// packages first (with the SDK's type declarations), refuses versions that differ
// (check-versions.mjs), and then reads each tarball back: nothing in it may name a path of this
// repository or be a link, and each must hold what its `exports` and `bin` point at.
// Prints one line per tarball, its path, so scripts can read them.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));
const WORKSPACES = ['sandbox-lib', 'cli'];

const run = (args, options = {}) => execFileSync(args[0], args.slice(1), { cwd: repo, encoding: 'utf8', ...options });

/** Every path an `exports` condition or `bin` names (conditions naming sources excepted: they are for this repository). */
function promisedFiles(pkg) {
  const paths = Object.values(pkg.bin ?? {});
  for (const entry of Object.values(pkg.exports ?? {})) {
    for (const [condition, path] of Object.entries(entry)) if (condition !== 'source') paths.push(path);
  }
  return paths.map((p) => p.replace(/^\.\//, ''));
}

/** Every path under `dir`, relative, links listed but never followed. */
function entries(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? [path, ...entries(dir, path)] : [path];
  });
}

/** Unpacks `tarball` and answers what is wrong with it (empty: nothing); `repoPath` is what no file may name. */
export function tarballProblems(tarball, repoPath = repo) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-pack-'));
  try {
    run(['tar', '-xzf', tarball, '-C', dir]);
    const root = join(dir, 'package');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const problems = promisedFiles(pkg).filter((p) => !existsIn(root, p)).map((p) => `${pkg.name}: ${p} is promised by package.json but not packed`);
    for (const file of entries(root)) {
      const path = join(root, file);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) problems.push(`${pkg.name}: ${file} is a link (to ${readlinkSync(path)}), which an install would follow out of the package`);
      else if (stat.isFile() && readFileSync(path, 'utf8').includes(repoPath.replace(/\/$/, ''))) problems.push(`${pkg.name}: ${file} names a path of this repository`);
      if (file.split('/').includes('.build')) problems.push(`${pkg.name}: ${file} is a local native build`);
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const existsIn = (root, path) => statSync(join(root, path), { throwIfNoEntry: false })?.isFile() === true;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join(repo, 'dist/packages'));
  mkdirSync(out, { recursive: true });
  run([process.execPath, 'scripts/check-versions.mjs'], { stdio: 'inherit' });
  run([process.execPath, 'scripts/build-packages.mjs', '--declarations'], { stdio: 'inherit' });
  const packed = JSON.parse(run(['npm', 'pack', '--json', '--pack-destination', out, ...WORKSPACES.flatMap((w) => ['-w', w])]));
  const tarballs = packed.map((p) => join(out, p.filename));
  const problems = tarballs.flatMap((tarball) => tarballProblems(tarball));
  if (problems.length > 0) {
    console.error(`The tarballs are not fit to install:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  for (const tarball of tarballs) console.log(tarball);
}
