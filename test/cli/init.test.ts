/**
 * `platform init`: each template makes a project whose own tests pass (`node --test`, with the
 * repository's packages linked in as an installed project would resolve them: test/e2e/outside-repo
 * installs the packed tarballs instead), the package ranges follow the CLI's version, and a folder
 * with anything in it is refused without a file written.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import cliPackage from '../../cli/package.json' with { type: 'json' };
import { slugFrom } from '../../cli/src/init.ts';
import { REPO, runCli } from './helpers.ts';

const run = promisify(execFile);
const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'platform-init-'));
  roots.push(root);
  return root;
}

describe('platform init', () => {
  it.each(['hosted', 'self-hosted', 'mcp'])('the %s template: the files, the ranges, and its own tests pass', { timeout: 60_000 }, async (template) => {
    const root = await tempRoot();
    const created = await runCli(['init', 'weather-bot', '--template', template], { cwd: root });
    expect(created.code, created.stderr).toBe(0);
    const dir = join(root, 'weather-bot');
    const files = await readdir(dir);
    expect(files).toEqual(expect.arrayContaining(['.gitignore', 'README.md', 'app.test.ts', 'app.ts', 'package.json', 'tsconfig.json']));
    expect(files).not.toContain('gitignore');
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.name).toBe('weather-bot');
    expect(pkg.dependencies['@platform/sdk']).toBe(`^${cliPackage.version}`);
    expect(pkg.devDependencies['@platform/cli']).toBe(`^${cliPackage.version}`);
    const app = await readFile(join(dir, 'app.ts'), 'utf8');
    expect(app).toContain("slug: 'weather-bot'");
    expect(app).toContain("name: 'Weather Bot'");
    expect(app).not.toMatch(/\{\{\w+\}\}/);

    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const tested = await run(process.execPath, ['--test'], { cwd: dir, env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` } });
    expect(tested.stdout).toMatch(/ℹ fail 0/);
    expect(tested.stdout).not.toMatch(/ℹ pass 0\n/);
  });

  it('refuses a folder that has anything in it, and writes nothing', async () => {
    const root = await tempRoot();
    await mkdir(join(root, 'taken'));
    await writeFile(join(root, 'taken', 'notes.txt'), 'mine');
    const refused = await runCli(['init', 'taken'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/taken is not empty \(notes\.txt\): platform init makes a project in a new or empty folder, and never overwrites files/);
    expect(await readdir(join(root, 'taken'))).toEqual(['notes.txt']);
  });

  it('creates in the current folder when it is empty; usage errors name the problem', async () => {
    const root = await tempRoot();
    await mkdir(join(root, 'here'));
    expect((await runCli(['init'], { cwd: join(root, 'here') })).code).toBe(0);
    expect(await readdir(join(root, 'here'))).toContain('app.ts');
    const unknown = await runCli(['init', 'x', '--template', 'worker'], { cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown template "worker": one of hosted, self-hosted, mcp');
    expect((await runCli(['init', 'a', 'b'], { cwd: root })).stderr).toContain('init takes one folder, not 2');
  });

  it('makes a valid slug of any folder name', () => {
    expect(slugFrom('My First App!')).toBe('my-first-app');
    expect(slugFrom('ab')).toBe('ab-app');
    expect(slugFrom('---')).toBe('app-app');
    expect(slugFrom('x'.repeat(40))).toHaveLength(32);
    for (const name of ['My First App!', 'ab', '---', 'x'.repeat(40), 'a-'.repeat(20)]) expect(slugFrom(name)).toMatch(/^[a-z0-9-]{3,32}$/);
  });
});
