/**
 * `platform schedules` and `platform queue` against a control plane on loopback: a development
 * app with a schedule and a queue (seeded as the lifecycle suites seed them) is listed, a schedule
 * is fired on demand for the development install, a message is sent with a delay and a dedupe key,
 * and depth and dead letters are shown. Bad arguments are usage errors (exit 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';
import { seedApp, seedInstall } from '../control-plane/lifecycle/fixtures.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let project: TempProject;
let appId: string;
let installId: string;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace({ name: 'Acme' });
  project = await tempProject();
  const app = await seedApp(stack, {
    workspaceId: ws.workspace.id, ownerId: ws.owner.id, dev: true, events: [], endpoint: 'http://127.0.0.1:9/platform',
    schedules: [{ name: 'standup', cron: '0 9 * * MON-FRI', timeZone: 'Europe/Berlin' }], queue: { maxAttempts: 1 },
  });
  appId = app.id;
  installId = await seedInstall(stack, { appId, workspaceId: ws.workspace.id, kind: 'dev' });
  await stack.controlPlane.deliveries.schedules.runOnce();
});
afterAll(async () => {
  await stack?.stop();
  await project?.remove();
});

const cli = (argv: string[]) => runCli([...argv, '--app', appId], { cwd: project.dir, env: { PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey } });

describe('platform schedules', () => {
  it('lists the schedules of each install and fires one now for the development install', async () => {
    const list = await cli(['schedules']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^standup\s+0 9 \* \* MON-FRI Europe\/Berlin\s+dev\s+ins_\w+\s+next 2026-01-01T08:00:00.000Z, never fired/m);

    const run = await cli(['schedules', 'run', 'standup']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Fired standup for ${installId}`);
    const events = await stack.db.query<{ type: string; payload: any }>(`select type, payload from outbox_events where install_id = $1`, [installId]);
    expect(events.rows).toEqual([{ type: 'schedule.fired', payload: { schedule: expect.objectContaining({ name: 'standup', missed: 0 }) } }]);

    const unknown = await cli(['schedules', 'run', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('PlatformApiNotFoundError');
    expect((await cli(['schedules', 'run'])).code).toBe(2);
    expect((await cli(['schedules', 'delete'])).code).toBe(2);
  });
});

describe('platform queue', () => {
  it('sends (delay, dedupe key), shows depth, and lists dead letters', async () => {
    const sent = await cli(['queue', 'send', '{"remind":"mem_1"}', '--delay', '3600', '--dedupe-key', 'remind:mem_1']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/^Sent evt_\w+, due 2026-01-01T01:00:00.000Z/);
    const again = await cli(['queue', 'send', '{"remind":"mem_1"}', '--dedupe-key', 'remind:mem_1']);
    expect(again.stdout).toMatch(/^Not sent again: the key names evt_\w+/);

    const depth = await cli(['queue', 'depth']);
    expect(depth.code, depth.stderr).toBe(0);
    expect(depth.stdout).toContain(`dev       ${installId}  1 waiting, oldest 0 s, 0 dead`);

    // The development app's endpoint is a closed port: one attempt (maxAttempts 1) and it is dead.
    stack.clock.advance(3_600_000);
    await stack.controlPlane.deliveries.worker.drain();
    const dead = await cli(['queue', 'dead']);
    expect(dead.code, dead.stderr).toBe(0);
    expect(dead.stdout).toMatch(new RegExp(`^evt_\\w+  ${installId}  sent 2026-01-01T00:00:00.000Z, 1 attempts: `, 'm'));

    expect((await cli(['queue', 'send', 'not json'])).code).toBe(2);
    expect((await cli(['queue', 'send', '1', '--delay', 'soon'])).code).toBe(2);
    expect((await cli(['queue', 'peek'])).code).toBe(2);
  });
});
