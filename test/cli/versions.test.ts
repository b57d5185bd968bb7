/**
 * `platform versions` and `platform rollback` against a control plane and a runtime node on
 * loopback: the sample hosted app is published twice (the second version answers differently and
 * adds an outbound host), listed, rolled back (the route answers as version 1 again), and rolled
 * forward to the wider version, which a workspace install has not approved, so it stays put with
 * `app.reconsentRequired`, as after any publish.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWorkspace, Stack } from '../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from '../control-plane/apps/runtime.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let hello: TempProject;
let appId: string;
let installId: string;

beforeAll(async () => {
  // The node asks the control plane for the live version on every request (no 5 s cache), so a
  // publish or a rollback shows in the very next answer.
  env = await startStackWithRuntime({ runtimeEnv: { RUNTIME_DIRECTORY_TTL_MS: '0' } });
  stack = env.stack;
  ws = await stack.createWorkspace({ name: 'Acme' });
  hello = await tempProject('hello');
});
afterAll(async () => {
  await env?.stop();
  await hello?.remove();
});

const cli = (argv: string[]) => runCli(argv, { cwd: hello.dir, env: { PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey } });
const route = async () => (await (await fetch(`${env.runtimeUrl}/apps/hello/hello/ada`)).json()) as { message: string };
const installOf = async () => (await ws.client.get(`/installs/${installId}`)).body.install as { version: number; pendingVersion: number | null };
const events = async () =>
  (await stack.db.query<{ type: string }>('select type from outbox_events where install_id = $1 order by created_at, id', [installId])).rows.map((r) => r.type);

/** Version 2 of the sample: another greeting, and an outbound host (access installs must approve). */
async function editSource(): Promise<void> {
  const file = join(hello.dir, 'app.ts');
  const source = await readFile(file, 'utf8');
  await writeFile(file, source
    .replace("hosting: 'platform',", "hosting: 'platform',\n  egressHosts: ['api.example.com'],")
    .replace('`${String(ctx.env.GREETING)}, ${ctx.params.name}!`', '`Version two says hi, ${ctx.params.name}`'));
}

describe('platform versions and rollback', () => {
  it('refuses a rollback before there is a production version, with the tag', async () => {
    const created = await cli(['deploy', '--create']);
    expect(created.code, created.stderr).toBe(0);
    appId = (JSON.parse(await readFile(join(hello.dir, 'platform.json'), 'utf8')) as { appId: string }).appId;
    const run = await cli(['rollback']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PlatformApiConflictError: The app has no production version yet');
  });

  it('lists versions newest first with the live one and what each adds in access', async () => {
    expect((await cli(['deploy', '--production'])).code).toBe(0); // version 2
    installId = (await ws.client.post(`/apps/${appId}/installs`, { version: 2 })).body.install.id;
    expect(await route()).toEqual({ message: 'Hello, ada!' });
    await editSource();
    const wider = await cli(['deploy', '--production']); // version 3
    expect(wider.code, wider.stderr).toBe(0);
    expect(wider.stdout).toContain('  adds       egressHost api.example.com');
    expect(await route()).toEqual({ message: 'Version two says hi, ada' });
    // The install has not approved the new host: it stays on version 2.
    expect(await installOf()).toMatchObject({ version: 2, pendingVersion: 3 });

    const run = await cli(['versions']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(`Versions of ${appId}, newest first:`);
    expect(lines[2]).toMatch(/^ {3}3 {2}production \S+ {2}[0-9a-f]{12} {2}\(live\)$/);
    expect(lines[3]).toMatch(/^ {6}bundle [0-9a-f]{12} \([\d.]+ KB\)$/);
    expect(lines[4]).toBe('      adds   egressHost api.example.com');
    expect(lines[5]).toMatch(/^ {3}2 {2}production \S+ {2}[0-9a-f]{12}$/);
    expect(run.stdout).toMatch(/^ {3}1 {2}preview {4}/m);

    const json = JSON.parse((await cli(['versions', '--json', '--limit', '2'])).stdout) as { items: Array<{ version: number; live: boolean }>; nextBefore: number | null };
    expect(json.items.map((v) => [v.version, v.live])).toEqual([[3, true], [2, false]]);
    expect(json.nextBefore).toBe(2);
  });

  it('rolls production back to the version before the live one: the route answers as it did, installs move', async () => {
    const run = await cli(['rollback']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Rolled hello (${appId}) back to version 2: production is now version 4, a copy of it`);
    expect(await route()).toEqual({ message: 'Hello, ada!' });
    // Version 4 adds nothing over the version the install runs: it moves, and the pending one is settled.
    expect(await installOf()).toMatchObject({ version: 4, pendingVersion: null });
    const listed = await cli(['versions']);
    expect(listed.stdout).toMatch(/^ {3}4 {2}production \S+ {2}[0-9a-f]{12} {2}\(live, rollback of 2\)$/m);
  });

  it('applies the consent rules of a publish: a rollback to wider access waits for an admin', async () => {
    const run = await cli(['rollback', '3']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('production is now version 5, a copy of it');
    expect(run.stdout).toContain('  adds       egressHost api.example.com');
    expect(run.stdout).toContain('Workspaces that installed an earlier version keep it until an admin approves what this one adds.');
    expect(await installOf()).toMatchObject({ version: 4, pendingVersion: 5 });
    expect((await events()).filter((t) => t === 'app.reconsentRequired')).toHaveLength(2);
  });

  it('refuses a preview, the live version and a version that does not exist, with the tags', async () => {
    const preview = await cli(['rollback', '1']);
    expect(preview.code).toBe(1);
    expect(preview.stderr).toContain('PlatformApiConflictError: Version 1 is a preview');
    expect((await cli(['rollback', '5'])).stderr).toContain('PlatformApiConflictError: Version 5 is the live production version already');
    expect((await cli(['rollback', '99'])).stderr).toContain('PlatformApiNotFoundError: The app has no version 99');
    const usage = await cli(['rollback', 'two']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('platform rollback takes a version number (1, 2, …), not "two"');
  });
});
