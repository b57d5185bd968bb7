/**
 * `platform build`: the sample app bundles into one ES module for a neutral (Web) platform, its
 * computed manifest is read in a child process and summarized; a bundle over 10 MB is refused
 * before anything is written (a generated incompressible module pushes it over); build errors,
 * a default export that is not an app and a manifest the local check refuses all exit 1.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@platform/sdk';
import { buildBundle, BuildError } from '../../cli/src/bundle.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

const projects: TempProject[] = [];
const project = async (fixture?: string) => {
  const p = await tempProject(fixture);
  projects.push(p);
  return p.dir;
};
afterEach(async () => {
  for (const p of projects.splice(0)) await p.remove();
});

describe('platform build', () => {
  it('bundles the sample app and prints the manifest its code computes', async () => {
    const dir = await project('hello');
    const run = await runCli(['build'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Built \.platform\/bundle\.js from app\.ts: [\d.]+ (KB|MB) minified \(limit 10\.00 MB\), source map \.platform\/bundle\.js\.map$/m);
    expect(run.stdout).toContain('  app        Hello (hello)');
    expect(run.stdout).toContain('  hosting    platform (runs on runtime nodes)');
    expect(run.stdout).toContain('  blocks     greeting');
    expect(run.stdout).toContain('  commands   /hello');
    expect(run.stdout).toContain('  manifest   valid');
    expect(run.stdout).not.toContain('hint');

    const code = await readFile(join(dir, '.platform/bundle.js'), 'utf8');
    // One ES module for the isolate: nothing left to import, no Node built-ins.
    expect(code).toMatch(/export\s*\{[^}]*as default/);
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
    // Minified, with the map beside it naming the app's own source (for stack traces).
    expect(code.trimEnd().split('\n').at(-1)).toBe('//# sourceMappingURL=bundle.js.map');
    const map = JSON.parse(await readFile(join(dir, '.platform/bundle.js.map'), 'utf8')) as { sources: string[]; sourcesContent: string[] };
    expect(map.sources).toContain('../app.ts');
    expect(map.sourcesContent[map.sources.indexOf('../app.ts')]).toBe(await readFile(join(dir, 'app.ts'), 'utf8'));
  });

  it('makes the map platform deploy uploads: the app\'s files named as the project names them, without their text', async () => {
    const dir = await project('hello');
    const bundle = await buildBundle({ entry: 'app.ts', cwd: dir });
    const uploaded = JSON.parse(new TextDecoder().decode(bundle.sourceMap)) as { version: number; sources: string[]; mappings: string; sourcesContent?: unknown };
    const onDisk = JSON.parse(await readFile(bundle.mapPath, 'utf8')) as { sources: string[]; mappings: string };
    expect(uploaded.version).toBe(3);
    expect(uploaded.sources).toContain('app.ts');
    expect(uploaded.sources).not.toContain('../app.ts');
    expect(uploaded.sources).toHaveLength(onDisk.sources.length);
    expect(uploaded).not.toHaveProperty('sourcesContent');
    expect(uploaded.mappings).toBe(onDisk.mappings);
  });

  it('takes the entry as an argument, --outfile and --no-minify (--minify, the old way to ask, still works)', async () => {
    const dir = await project('hello');
    const plain = await runCli(['build', 'app.ts', '--outfile', 'out/plain.js', '--no-minify'], { cwd: dir });
    const minified = await runCli(['build', 'app.ts', '--outfile=out/min.js'], { cwd: dir });
    const asked = await runCli(['build', 'app.ts', '--outfile=out/asked.js', '--minify'], { cwd: dir });
    for (const run of [plain, minified, asked]) expect(run.code, run.stderr).toBe(0);
    expect(plain.stdout).toMatch(/from app\.ts: [\d.]+ (KB|MB) \(limit/);
    // The code without its last line (the sourceMappingURL comment names each file's own map).
    const code = await Promise.all(['out/plain.js', 'out/min.js', 'out/asked.js'].map(async (f) => (await readFile(join(dir, f), 'utf8')).trimEnd().split('\n').slice(0, -1).join('\n')));
    expect(code[1]!.length).toBeLessThan(code[0]!.length);
    expect(code[2]).toBe(code[1]);
    expect(existsSync(join(dir, 'out/min.js.map'))).toBe(true);
    expect((await runCli(['build', '--minify', '--no-minify'], { cwd: dir })).code).toBe(2);
  });

  it('refuses a bundle over 10 MB before writing it, naming the largest inputs', async () => {
    const dir = await project();
    // Random base64 does not shrink when minified: the bundle stays over the limit either way.
    await writeFile(join(dir, 'big.js'), `export const blob = ${JSON.stringify(randomBytes(LIMITS.manifest.hostedBundleBytes * 0.76).toString('base64'))};\n`);
    await writeFile(join(dir, 'app.js'), `import { blob } from './big.js';
export default { manifest: { schemaVersion: 1, name: 'Big', slug: 'big-app', hosting: 'platform' }, fetch: () => new Response(blob.slice(0, 10)) };
`);
    const run = await runCli(['build', '--minify'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/The bundle is 10\.\d\d MB \(\d+ bytes\); hosted bundles are at most 10\.00 MB \(10485760 bytes\)\./);
    expect(run.stderr).toMatch(/Largest inputs:\n\s+10\.\d\d MB\s+big\.js/);
    expect(existsSync(join(dir, '.platform/bundle.js'))).toBe(false);
  });

  it('accepts a bundle of exactly the limit and refuses one byte more', async () => {
    const dir = await project();
    await writeFile(join(dir, 'app.js'), 'export default { manifest: {}, fetch: () => new Response("") };\n');
    const { bytes } = await buildBundle({ entry: 'app.js', cwd: dir, outfile: 'a.js' });
    await expect(buildBundle({ entry: 'app.js', cwd: dir, outfile: 'b.js', maxBytes: bytes })).resolves.toMatchObject({ bytes });
    await expect(buildBundle({ entry: 'app.js', cwd: dir, outfile: 'c.js', maxBytes: bytes - 1 })).rejects.toThrow(BuildError);
    expect(existsSync(join(dir, 'c.js'))).toBe(false);
  });

  it('reports esbuild errors with their location (Node built-ins do not exist in the runtime)', async () => {
    const dir = await project();
    await writeFile(join(dir, 'app.ts'), "import { readFileSync } from 'node:fs';\nexport default readFileSync;\n");
    const run = await runCli(['build'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Build failed:\n\s+app\.ts:1:\d+: Could not resolve "node:fs"/m);
  });

  it('says so when the default export is not an app, or the module throws at load', async () => {
    const dir = await project();
    await writeFile(join(dir, 'app.js'), 'export default { hello: 1 };\n');
    const notApp = await runCli(['build'], { cwd: dir });
    expect(notApp.code).toBe(1);
    expect(notApp.stderr).toContain("The bundle's default export is not an app");

    await writeFile(join(dir, 'app.js'), 'throw new Error("broken at load");\n');
    const throws = await runCli(['build'], { cwd: dir });
    expect(throws.code).toBe(1);
    expect(throws.stderr).toContain('The bundle did not load: Error: broken at load');
    // The stack names the app's own file and line (through the map beside the bundle), not the
    // bundle, the copy it was loaded from, or Node's loader.
    expect(throws.stderr).toContain('at <anonymous> (app.js:1:7)');
    expect(throws.stderr).not.toMatch(/\.mjs|node:internal|\[eval/);
    expect(await readdir(join(dir, '.platform'))).toEqual(['bundle.js', 'bundle.js.map']);
  });

  it('prints the problem of a manifest the local check refuses', async () => {
    const dir = await project();
    await writeFile(join(dir, 'app.js'), `export default {
  manifest: { schemaVersion: 1, name: 'Self', slug: 'self-app', hosting: 'self' },
  fetch: () => new Response(''),
};
`);
    const run = await runCli(['build'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('  hosting    self-hosted at (no endpoint)');
    expect(run.stderr).toMatch(/The manifest is invalid: PlatformAppManifestInvalidError \(endpoint-required\): .+ \(at endpoint\)/);
  });

  it('leaves the manifest check of defineApp to itself (the bundle does not carry it) and reports the problem', async () => {
    const dir = await project();
    await writeFile(join(dir, 'app.ts'), `import { defineApp } from '@platform/sdk';
export default defineApp({ name: 'Bad', slug: 'Bad Slug!', hosting: 'platform', routes: { 'GET /': () => new Response('ok') } });
`);
    const run = await runCli(['build'], { cwd: dir });
    expect(run.code).toBe(1);
    // Not "The bundle did not load": defineApp did not throw inside the bundle; the CLI's check found it.
    expect(run.stderr).toMatch(/^The manifest is invalid: PlatformAppManifestInvalidError \(invalid\): .+ \(at slug\)$/m);
  });

  it('hints at the import that keeps zod small', async () => {
    const dir = await project();
    await writeFile(join(dir, 'app.ts'), `import { z } from 'zod';
import { defineApp } from '@platform/sdk';
export default defineApp({ name: 'Zod', slug: 'zod-app', hosting: 'platform', env: { N: z.string().default('x') }, routes: { 'GET /': () => new Response('ok') } });
`);
    const run = await runCli(['build'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^  hint       zod's translations take [\d.]+ KB of it: write import \* as z from 'zod'/m);
  });

  it('explains its usage', async () => {
    const dir = await project();
    const missing = await runCli(['build'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No app entry found');
    const help = await runCli(['build', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: platform build [entry]');
  });
});
