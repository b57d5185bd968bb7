/**
 * Issue 20's first "Done when", as an app author outside this repository lives it: `npm run pack`
 * makes the tarballs of `@platform/sdk` and `@platform/cli`; `platform init` creates a project in a
 * temporary folder outside the repository; `npm install` installs the tarballs there (their
 * dependencies from the registry, or offline from npm's cache, which holds them after this
 * repository's `npm ci`); the project's own `npm test` passes; the installed CLI (the package's
 * bin, not this repository's sources) deploys it to a running platform (a control plane and a
 * runtime node on loopback, wired both ways, as in stacks.test.ts); its route answers; a route
 * made to throw is read back through `platform logs`, the stack naming `app.ts` and the line.
 *
 * Measured on the 2-core CI machine shared with other runs: pack 22–66 s (two tsc declaration
 * runs, esbuild), npm install 4–10 s from the cache, npm test 6–11 s (tsc, then node --test); 40 s
 * in all when quiet. Each step's time is printed; beforeAll's timeout bounds them.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeNode, loadConfig, type RuntimeNode } from '@platform/runtime';
import { spawnCli, type CliProcess } from '../helpers/cli-process.ts';
import { freePort } from '../helpers/npm-start.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
// npm and the project's scripts find this Node 24 first (the project's engines say >= 24), and
// nothing else of the repository: no node_modules/.bin of ours on the PATH.
const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;

const cleanups: Array<() => Promise<unknown>> = [];
let stack: Stack;
let node: RuntimeNode;
let runtimeUrl: string;
let ws: CreatedWorkspace;
let home: string;
let project: string;
let boomLine: number;
const timings: Record<string, number> = {};

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[step] = Math.round(performance.now() - started);
  }
}

/** The CLI the project installed (its package's bin), in the project. */
function platform(args: string[]): CliProcess {
  const cli = spawnCli({
    cwd: project, args, bin: join(project, 'node_modules/@platform/cli/bin/platform.mjs'),
    env: { PATH, HOME: home, PLATFORM_CONFIG_DIR: home, PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey },
  });
  cleanups.push(async () => { if (cli.child.exitCode === null) cli.child.kill('SIGKILL'); });
  return cli;
}

beforeAll(async () => {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'outside-repo-')));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  expect(root.startsWith(REPO)).toBe(false);
  home = join(root, 'home');
  await mkdir(home);
  const packs = join(root, 'packs');
  const env = { ...process.env, PATH };

  const packed = await timed('pack', () => run(process.execPath, [join(REPO, 'scripts/pack-packages.mjs'), packs], { cwd: REPO, env, maxBuffer: 16 << 20 }));
  const tarballs = packed.stdout.trim().split('\n');
  expect(tarballs.map((t) => t.replace(`${packs}/`, ''))).toEqual(['platform-sdk-0.1.0.tgz', 'platform-cli-0.1.0.tgz']);

  // `platform init` of the CLI just packed (the same dist/), in a folder of the author's choosing.
  project = join(root, 'my-app');
  const init = await run(process.execPath, [join(REPO, 'cli/bin/platform.mjs'), 'init', 'my-app'], { cwd: root, env });
  expect(init.stdout).toContain(`Created a hosted project in ${project}`);
  const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect(manifest.dependencies['@platform/sdk']).toBe('^0.1.0');

  await timed('install', () => run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], { cwd: project, env, maxBuffer: 16 << 20 }));
  // Installed, not linked: nothing in the project resolves into this repository.
  expect(await realpath(join(project, 'node_modules/@platform/sdk'))).toBe(join(project, 'node_modules/@platform/sdk'));
  const tested = await timed('npm test', () => run('npm', ['test'], { cwd: project, env, maxBuffer: 16 << 20 }));
  expect(tested.stdout).toMatch(/ℹ pass 3\nℹ fail 0/);

  // A route that throws, added as an author would; the line is read from the file.
  const source = (await readFile(join(project, 'app.ts'), 'utf8'))
    .replace("routes: {", "routes: {\n    'GET /boom/:name': (_request, ctx) => explode(ctx.params.name),")
    .replace('export default defineApp(', 'function explode(name: string): Response {\n  throw new Error(`no greeting for ${name}`);\n}\n\nexport default defineApp(');
  await writeFile(join(project, 'app.ts'), source);
  boomLine = source.split('\n').findIndex((l) => l.includes('throw new Error(`no greeting')) + 1;

  const port = await freePort();
  const secret = randomBytes(24).toString('base64url');
  node = createRuntimeNode({
    config: loadConfig({
      RUNTIME_SECRET: secret, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: join(root, 'runtime'), RUNTIME_WORKERS: '1',
      CONTROL_PLANE_URL: `http://127.0.0.1:${port}`, RUNTIME_STARTUP_CPU_MS: '500', RUNTIME_DIRECTORY_TTL_MS: '10', RUNTIME_LOG_FLUSH_MS: '50', LOG_LEVEL: 'silent',
    }),
    logger: pino({ level: 'silent' }),
  });
  ({ url: runtimeUrl } = await node.start());
  cleanups.push(() => node.stop());
  stack = await startStack({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: secret } });
  cleanups.push(() => stack.stop());
  ws = await stack.createWorkspace();
}, 420_000);

afterAll(async () => {
  console.log(`outside-repo timings (ms): ${JSON.stringify(timings)}`);
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('an app made with platform init outside the repository', () => {
  it('deploys with the installed CLI, its route answers, and a thrown error reads back through platform logs naming app.ts and the line', { timeout: 120_000 }, async () => {
    const deployed = await platform(['deploy', '--production', '--create']).exited;
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stdout).toMatch(/source map sha256 [0-9a-f]{64}/);

    const hello = await fetch(`${runtimeUrl}/apps/my-app/hello/ada`);
    expect(await hello.json()).toEqual({ message: 'Hello, ada!' });

    const follow = platform(['logs', '--follow']);
    await follow.waitFor('stderr', /Following the logs of app_/);
    expect((await fetch(`${runtimeUrl}/apps/my-app/boom/ada`)).status).toBe(500);
    const output = await follow.waitFor('stdout', /GET \/apps\/my-app\/boom\/ada → 500 error/);
    expect(output).toMatch(new RegExp(`Error: no greeting for ada\\n {6}at explode \\(app\\.ts:${boomLine}:\\d+\\)`));
    follow.child.kill('SIGTERM');
    expect((await follow.exited).code).toBe(0);
  });
});
