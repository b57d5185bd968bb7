/**
 * Schedules and queues under `platform dev` (issue 23, item 4): the CLI's `startDev` syncs a
 * self-hosted development app with a schedule and a queue and opens the relay; a schedule fired on
 * demand (`platform schedules run`) and a queued message (`platform queue send`), both aimed at the
 * development install by default, reach the SDK app on localhost through the relay and run its
 * handlers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp, defineQueue, defineSchedule, silentLogger, type Manifest } from '@platform/sdk';
import { serve, type Served } from '../../../sandbox-lib/src/node/index.ts';
import { startDev, type DevSession } from '../../../cli/src/dev.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { runCli, tempProject, type TempProject } from '../../cli/helpers.ts';

let stack: Stack;
let served: Served;
let session: DevSession | undefined;
let project: TempProject;
let apiKey: string;
const handled: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  apiKey = (await stack.createWorkspace()).apiKey;
  project = await tempProject();
  let secret = '';
  const app = defineApp({
    name: 'Dev clock', slug: 'devclock', hosting: 'self', endpoint: 'http://localhost:1/platform',
    schedules: [defineSchedule({ name: 'standup', cron: '0 9 * * MON-FRI', handler: ({ schedule }) => void handled.push(`schedule ${schedule.name} missed ${schedule.missed}`) })],
    queue: defineQueue<{ remind: string }>({ handler: ({ message }) => void handled.push(`message ${message.body.remind}`) }),
  }, { now: () => stack.clock.now(), logger: silentLogger });
  served = await serve({ fetch: (request, _env, ctx) => app.fetch(request, { PLATFORM_SIGNING_SECRET: secret }, ctx) }, { port: 0, logger: silentLogger });
  const manifest: Manifest = { ...app.manifest, endpoint: { url: `${served.url}/platform` } };
  session = await startDev({ baseUrl: stack.url, apiKey, manifest: manifest as unknown as Record<string, unknown>, print: () => undefined });
  secret = session.signingSecret!;
  // The schedule loop reads the development install's schedules.
  await stack.controlPlane.deliveries.schedules.runOnce();
}, 60_000);

afterAll(async () => {
  await session?.stop();
  await served?.close();
  await stack?.stop();
  await project?.remove();
});

const cli = (argv: string[]) => runCli([...argv, '--app', session!.appId], { cwd: project.dir, env: { PLATFORM_URL: stack.url, PLATFORM_API_KEY: apiKey } });

describe('platform dev with schedules and queues', () => {
  it('relays a schedule fired on demand and a queued message to the local app', async () => {
    const fired = await cli(['schedules', 'run', 'standup']);
    expect(fired.code, fired.stderr).toBe(0);
    expect(fired.stdout).toContain(`Fired standup for ${session!.installId}`);
    const sent = await cli(['queue', 'send', '{"remind":"mem_1"}']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(2);
    expect(handled.sort()).toEqual(['message mem_1', 'schedule standup missed 0']);
  });
});
