/**
 * `platform dev` on a hosted app, the built `platform` bin in its own process against a control
 * plane on loopback, as an author runs it: the sample app's bundle runs in the local sandbox
 * (a runtime node of the CLI's own), its route is served on a local port with the environment of
 * `.dev.vars`, an edit of the source is served after the reload, a runaway loop is stopped at the
 * CPU budget, and a command run by a member reaches the dev install through the relay and runs
 * in the same sandbox. Every stack it prints (a route that throws, a CPU stop, a build that fails to
 * load) names app.ts, the line and the function, mapped locally through the map beside the bundle.
 * Nothing is deployed and no leftover app is created.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';
import { REPO, tempProject, type TempProject } from './helpers.ts';

const BIN = join(REPO, 'cli/bin/platform.mjs');

let stack: Stack;
let ws: CreatedWorkspace;
let project: TempProject;
let child: ChildProcess | undefined;
const lines: string[] = [];
const waiters: Array<{ test: (line: string) => boolean; resolve: (line: string) => void }> = [];

/** Resolves with the first output line (already printed or still to come) that matches. */
function line(test: RegExp, from = 0): Promise<string> {
  const found = lines.slice(from).find((l) => test.test(l));
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve) => waiters.push({ test: (l) => test.test(l), resolve }));
}

function collect(stream: NodeJS.ReadableStream): void {
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      for (const w of waiters.filter((x) => x.test(l))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
}

let local: string;
let slug: string;
/** The 1-based line of app.ts that contains `needle`. */
let lineOf: (needle: string) => number;

beforeAll(async () => {
  const built = spawn(process.execPath, [join(REPO, 'scripts/build-packages.mjs')], { stdio: 'ignore' });
  expect(await new Promise((r) => built.on('close', r))).toBe(0);
  stack = await startStack();
  ws = await stack.createWorkspace({ name: 'Acme' });
  project = await tempProject('hello');
  const source = join(project.dir, 'app.ts');
  const sample = (await readFile(source, 'utf8'))
    .replace("routes: {", `routes: {
    'GET /spin': () => spinInDev(),
    'GET /boom': () => explodeInDev(),`)
    .replace('export default defineApp(', `function explodeInDev(): never {
  throw new Error('the dev route failed on purpose');
}

function spinInDev(): Response {
  for (;;) { /* a runaway loop */ }
}

export default defineApp(`);
  await writeFile(source, sample);
  lineOf = (needle: string) => sample.split('\n').findIndex((l) => l.includes(needle)) + 1;
  await writeFile(join(project.dir, '.dev.vars'), 'GREETING=Howdy\n');
  child = spawn(process.execPath, ['--no-node-snapshot', BIN, 'dev', '--port', '0'], {
    cwd: project.dir,
    env: { PATH: process.env.PATH ?? '', HOME: project.dir, PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  collect(child.stdout!);
  collect(child.stderr!);
  const serving = await Promise.race([
    line(/^Serving app\.ts in the local sandbox at /),
    new Promise<never>((_, reject) => child!.once('exit', (code) => reject(new Error(`platform dev exited ${code}:\n${lines.join('\n')}`)))),
  ]);
  const match = /at (http:\/\/[^/]+)\/apps\/([^/]+)\//.exec(serving)!;
  local = match[1]!;
  slug = match[2]!;
  await line(/^Relaying the dev install's deliveries to the local sandbox$/);
}, 120_000);

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGINT');
    await exited;
  }
  await stack?.stop();
  await project?.remove();
});

describe('platform dev (hosted app)', () => {
  it('syncs the development app, prints its signing secret before any delivery, and serves the route locally', async () => {
    expect(slug).toMatch(/^hello-[a-z2-7]{4}$/);
    const secretAt = lines.findIndex((l) => /^Signing secret \(the dev install's deliveries are signed with it\): whsec_\S+$/.test(l));
    expect(secretAt).toBeGreaterThan(-1);
    expect(secretAt).toBeLessThan(lines.findIndex((l) => l.startsWith('Relaying')));
    expect(lines.some((l) => l.includes('Playground'))).toBe(false);
    const res = await fetch(`${local}/apps/${slug}/hello/ada`);
    expect(await res.json()).toEqual({ message: 'Howdy, ada!' });
    // The development app is the only app made, and it is the one synced.
    const apps = (await ws.client.get('/apps')).body.items as Array<{ slug: string; hosting: string }>;
    expect(apps.map((a) => [a.slug, a.hosting])).toEqual([[slug, 'platform']]);
  });

  it('serves an edit of the source after the reload', async () => {
    const from = lines.length;
    const source = join(project.dir, 'app.ts');
    await writeFile(source, (await readFile(source, 'utf8')).replace('`${String(ctx.env.GREETING)}, ${ctx.params.name}!`', '`Edited: ${ctx.params.name}`'));
    await line(/^Reloaded app\.ts: version \d+ /, from);
    expect(await (await fetch(`${local}/apps/${slug}/hello/ada`)).json()).toEqual({ message: 'Edited: ada' });
  });

  it('serves the new environment after an edit of .dev.vars, without a change of the source', async () => {
    const from = lines.length;
    const source = join(project.dir, 'app.ts');
    // The previous test's edit took GREETING out of the route: put it back first.
    await writeFile(source, (await readFile(source, 'utf8')).replace('`Edited: ${ctx.params.name}`', '`${String(ctx.env.GREETING)}, ${ctx.params.name}!`'));
    await line(/^Reloaded app\.ts: version \d+ /, from);
    expect(await (await fetch(`${local}/apps/${slug}/hello/ada`)).json()).toEqual({ message: 'Howdy, ada!' });
    const edited = lines.length;
    await writeFile(join(project.dir, '.dev.vars'), 'GREETING=Ahoy\n');
    await line(/^Reloaded \.dev\.vars: version \d+ serves with the new environment$/, edited);
    expect(await (await fetch(`${local}/apps/${slug}/hello/ada`)).json()).toEqual({ message: 'Ahoy, ada!' });
  });

  it('prints the stack of a route that throws with app.ts, the line and the function (mapped through the build\'s own map)', async () => {
    const from = lines.length;
    expect((await fetch(`${local}/apps/${slug}/boom`)).status).toBe(500);
    expect(await line(new RegExp(`^  error Request failed: GET /apps/${slug}/boom`), from)).toBeTruthy();
    expect(await line(/^ {8}Error: the dev route failed on purpose$/, from)).toBeTruthy();
    const frame = await line(/^ {10}at explodeInDev \(/, from);
    expect(frame).toMatch(new RegExp(`\\(app\\.ts:${lineOf("throw new Error('the dev route failed on purpose')")}:\\d+\\)$`));
  });

  it('stops a runaway loop at the CPU budget, as production does, and prints where (app.ts)', async () => {
    const from = lines.length;
    const res = await fetch(`${local}/apps/${slug}/spin`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformRuntimeCpuLimitError' });
    expect(await line(/^  limit The request used more than its \d+ ms CPU budget and was stopped\.$/, from)).toBeTruthy();
    // Where V8 could interrupt it: inside the loop, when the stop caught a stack at all (a contended core may not).
    const stopped = lines.slice(from).find((l) => / {10}at spinInDev \(/.test(l));
    if (stopped !== undefined) expect(stopped).toMatch(new RegExp(`\\(app\\.ts:${lineOf('a runaway loop')}:\\d+\\)$`));
    // The sandbox goes on serving.
    expect((await fetch(`${local}/apps/${slug}/hello/bo`)).status).toBe(200);
  });

  it('a build that throws while it loads is not served, and says where it threw (app.ts, line, function); the fix is', async () => {
    const source = join(project.dir, 'app.ts');
    const good = await readFile(source, 'utf8');
    const from = lines.length;
    const broken = good.replace('export default defineApp(', `function readDevSettings(): never {
  throw new Error('no settings in dev');
}
readDevSettings();

export default defineApp(`);
    await writeFile(source, broken);
    expect(await line(/^Not reloaded: The bundle failed to start: Error: no settings in dev$/, from)).toBeTruthy();
    const thrownAt = broken.split('\n').findIndex((l) => l.includes("throw new Error('no settings in dev')")) + 1;
    expect(await line(/^ {4}at readDevSettings \(/, from)).toMatch(new RegExp(`\\(app\\.ts:${thrownAt}:\\d+\\)$`));
    // The last good build goes on serving; the fix reloads.
    expect((await fetch(`${local}/apps/${slug}/hello/bo`)).status).toBe(200);
    const fixed = lines.length;
    await writeFile(source, good);
    await line(/^Reloaded app\.ts: version \d+ /, fixed);
  });

  it('runs the dev install\'s deliveries in the local sandbox through the relay', async () => {
    const circleId = (await ws.client.post('/circles', { name: 'Dev', visibility: 'public' })).body.circle.id as string;
    const conversationId = (await ws.client.post(`/circles/${circleId}/conversations`, { title: 'Try it' })).body.conversation.id as string;
    const apps = (await ws.client.get('/apps')).body.items as Array<{ id: string }>;
    const from = lines.length;
    const res = await ws.client.post('/commands/run', { appId: apps[0]!.id, command: 'hello', options: { name: 'ada' }, surface: { kind: 'circle', circleId, conversationId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invocation).toMatchObject({ status: 'answered' });
    expect(await line(/interactive +command\.run +dlv_\w+ +→ 200/, from)).toBeTruthy();
  });
});
