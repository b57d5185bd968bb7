/**
 * `npm run pack` reads each tarball back before it prints it (scripts/pack-packages.mjs): a file
 * naming a path of the repository, a link, a local native build, or a file that `exports`/`bin`
 * promise but the tarball lacks, is named. Tarballs made here with tar, as npm lays them out.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without declarations
import { tarballProblems } from '../../scripts/pack-packages.mjs';

const check = tarballProblems as (tarball: string, repoPath: string) => string[];
const run = promisify(execFile);
const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** A tarball of `files` (path → text, or `{ link }`) under `package/`. */
async function tarball(files: Record<string, string | { link: string }>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pack-check-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, 'package', path);
    await mkdir(join(target, '..'), { recursive: true });
    if (typeof content === 'string') await writeFile(target, content);
    else await symlink(content.link, target);
  }
  await run('tar', ['-czf', join(root, 'p.tgz'), '-C', root, 'package']);
  return join(root, 'p.tgz');
}

const pkg = JSON.stringify({ name: '@platform/x', exports: { '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } }, bin: { x: './bin/x.mjs' } });

describe('the tarball check of npm run pack', () => {
  it('passes a package that holds what it promises and names nothing of the build machine', async () => {
    expect(check(await tarball({ 'package.json': pkg, 'dist/index.js': 'export {}', 'dist/index.d.ts': 'export {}', 'bin/x.mjs': '' }), '/home/ci/platform/')).toEqual([]);
  });

  it('names a missing promised file, a repository path, a link and a native build', async () => {
    const problems = check(await tarball({
      'package.json': pkg,
      'dist/index.js': 'import "/home/ci/platform/runtime/src/dev.ts"',
      'bin/x.mjs': '',
      'dist/up': { link: '../../..' },
      'dist/.build/key/isolated_vm.node': 'binary',
    }), '/home/ci/platform/');
    expect(problems).toEqual(expect.arrayContaining([
      '@platform/x: dist/index.d.ts is promised by package.json but not packed',
      '@platform/x: dist/index.js names a path of this repository',
      '@platform/x: dist/up is a link (to ../../..), which an install would follow out of the package',
      '@platform/x: dist/.build/key/isolated_vm.node is a local native build',
    ]));
    expect(problems.some((p) => p.includes('src/index.ts'))).toBe(false);
  });
});
