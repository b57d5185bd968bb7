/**
 * Hosted bundle sizes, built the way `platform deploy` builds them (cli/src/bundle.ts: esbuild,
 * neutral platform, minified, the SDK from its built dist): the hello app of the budget (one block,
 * one route, no zod) against "≤ 100 KB", and, for comparison, the README's first app, which uses
 * zod for its props, state and env. `npm run bench -- hello-bundle` runs this alone.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from '../../cli/src/bundle.ts';
import type { BenchRow } from './run.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BUDGET_KB = 100;

/** Minified size in KB (1024 bytes, as the CLI prints it) of a fixture app built as `platform deploy` does. */
async function bundledKb(fixture: string): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-bench-'));
  try {
    await cp(join(REPO, 'test/fixtures/cli', fixture, 'app.ts'), join(dir, 'app.ts'));
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const bundle = await buildBundle({ entry: 'app.ts', cwd: dir });
    return bundle.bytes / 1024;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  // App projects import the SDK's built dist: build it from the current sources first.
  execFileSync(process.execPath, [join(REPO, 'scripts/build-packages.mjs')], { stdio: 'inherit' });
  const hello = await bundledKb('hello-world');
  const readme = await bundledKb('hello');
  return [
    { name: 'hello app bundle (1 block, 1 route, no zod), minified', value: hello, unit: 'KB', target: `≤ ${BUDGET_KB} KB`, ratio: BUDGET_KB / hello },
    { name: "README's first app bundle (zod props, state, env), minified", value: readme, unit: 'KB', target: '–', ratio: null },
  ];
}
