/**
 * `platform deploy --production --rollout N` and `platform rollout status|advance|promote|abort`
 * against a control plane and a runtime node on loopback: the sample hosted app, installed by ten
 * workspaces, is rolled out to 10 % (one install moves; the app's routes keep the version before),
 * advanced to 50 %, aborted by the author (every install back), then rolled out again and promoted
 * (every install moves and the routes answer as the new version). Usage errors exit 2; a command
 * with no rollout running answers the tag.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWorkspace, Stack } from '../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from '../control-plane/apps/runtime.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

const INSTALLS = 10;
let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let hello: TempProject;
let appId: string;
const installs: Array<{ ws: CreatedWorkspace; id: string }> = [];

beforeAll(async () => {
  env = await startStackWithRuntime({ runtimeEnv: { RUNTIME_DIRECTORY_TTL_MS: '0' } });
  stack = env.stack;
  ws = await stack.createWorkspace({ name: 'Acme' });
  hello = await tempProject('hello');
}, 90_000);
afterAll(async () => {
  await env?.stop();
  await hello?.remove();
});

const cli = (argv: string[]) => runCli(argv, { cwd: hello.dir, env: { PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey } });
const route = async () => ((await (await fetch(`${env.runtimeUrl}/apps/hello/hello/ada`)).json()) as { message: string }).message;
const versions = async () => Promise.all(installs.map(async (i) => (await i.ws.client.get(`/installs/${i.id}`)).body.install.version as number));
const count = (list: number[], v: number) => list.filter((x) => x === v).length;

/** The greeting of the next version (no new access: installs may move without a consent). */
async function greet(words: string): Promise<void> {
  const file = join(hello.dir, 'app.ts');
  const source = await readFile(file, 'utf8');
  await writeFile(file, source.replace(/`[^`]*\$\{ctx\.params\.name\}[^`]*`/, `\`${words}, \${ctx.params.name}\``));
}

describe('platform deploy --rollout and platform rollout', () => {
  it('refuses --rollout without --production and a share out of range, as usage errors', async () => {
    const noProd = await cli(['deploy', '--rollout', '10']);
    expect(noProd.code).toBe(2);
    expect(noProd.stderr).toContain('--rollout rolls out a production version: add --production');
    const range = await cli(['deploy', '--production', '--rollout', '100']);
    expect(range.code).toBe(2);
    expect(range.stderr).toContain('--rollout takes a whole percent from 1 to 99, got 100');
  });

  it('rolls a production version out to a tenth of the installs; the routes keep the version before', async () => {
    expect((await cli(['deploy', '--create'])).code).toBe(0); // version 1, a preview
    appId = (JSON.parse(await readFile(join(hello.dir, 'platform.json'), 'utf8')) as { appId: string }).appId;
    expect((await cli(['deploy', '--production'])).code).toBe(0); // version 2
    const before = await route();
    for (let i = 0; i < INSTALLS; i++) {
      const team = await stack.createWorkspace({ name: `Team ${i}` });
      const res = await team.client.post(`/apps/${appId}/installs`, { version: 2 });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      installs.push({ ws: team, id: res.body.install.id });
    }
    const none = await cli(['rollout', 'status']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('PlatformApiNotFoundError: The app has no rollout');

    await greet('Version three says hi');
    const run = await cli(['deploy', '--production', '--rollout', '10']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Deployed hello (${appId}) to production: version 3`);
    expect(run.stdout).toContain('  rollout    10 % of the installs run it; platform rollout status shows how it fares');
    const list = await versions();
    expect(count(list, 3)).toBe(1);
    expect(count(list, 2)).toBe(INSTALLS - 1);
    expect(await route()).toBe(before);

    const status = await cli(['rollout', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout.split('\n').slice(0, 6)).toEqual([
      'Version 3 is rolling out to 10 % of the installs',
      expect.stringMatching(/^ {2}started {4}\S+$/),
      '  moved      1 installs',
      '  version 2  9 installs',
      '  version 3  1 installs',
      '  new        0 failed of 0',
    ]);
    expect(status.stdout).toContain('  verdict    waiting for 20 outcomes of the new version');
    const json = JSON.parse((await cli(['rollout', 'status', '--json'])).stdout) as { percent: number; status: string };
    expect(json).toMatchObject({ percent: 10, status: 'running' });
  });

  it('advances, then aborts: every install back on the version it ran', async () => {
    const bad = await cli(['rollout', 'advance', 'ten']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('platform rollout advance takes a whole percent from 1 to 100, got ten');
    const advanced = await cli(['rollout', 'advance', '50']);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stdout).toContain('Version 3 is rolling out to 50 % of the installs');
    expect(count(await versions(), 3)).toBe(5);

    const aborted = await cli(['rollout', 'abort', '--reason', 'the greeting is wrong']);
    expect(aborted.code, aborted.stderr).toBe(0);
    expect(aborted.stdout).toContain('The rollout of version 3 was aborted by the author: the greeting is wrong');
    expect(count(await versions(), 2)).toBe(INSTALLS);
    const again = await cli(['rollout', 'promote']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('PlatformApiConflictError: No rollout of this app is running');
  });

  it('a promoted rollout moves every install and the routes answer as the new version', async () => {
    await greet('Version four says hi');
    expect((await cli(['deploy', '--production', '--rollout', '20'])).code).toBe(0); // version 4
    expect(count(await versions(), 4)).toBe(2);
    // Another production version waits for the rollout (the same bundle again would answer version 4 unchanged).
    await greet('Version five says hi');
    const during = await cli(['deploy', '--production']);
    expect(during.code).toBe(1);
    expect(during.stderr).toContain('PlatformApiConflictError: Version 4 is rolling out (20 %)');
    const promoted = await cli(['rollout', 'promote']);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain('Version 4 was promoted: every install may run it');
    expect(count(await versions(), 4)).toBe(INSTALLS);
    expect(await route()).toBe('Version four says hi, ada');
  });
});
