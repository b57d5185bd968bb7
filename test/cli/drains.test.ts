/**
 * `platform drains add|list|test|rotate|enable|remove` against a control plane on loopback, with a
 * loopback receiver as the drain: the secret is printed once and verifies the test batch; a failing
 * receiver makes `test` exit 1 with the reason; usage errors exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '@platform/sdk';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let receiver: Receiver;
let project: TempProject;
let appId: string;

beforeAll(async () => {
  stack = await startStack();
  receiver = await startReceiver({ path: '/drain' });
  project = await tempProject('hello');
  ws = await stack.createWorkspace();
  appId = (await ws.client.post('/apps', { name: 'Drained', slug: 'drained-cli', hosting: 'platform' })).body.app.id;
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await stack?.stop();
  await project?.remove();
});

const cli = (argv: string[]) => runCli([...argv, '--app', appId], { cwd: project.dir, env: { PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey } });

describe('platform drains', () => {
  it('adds a drain, prints its secret once, tests, rotates, enables and removes it', async () => {
    const added = await cli(['drains', 'add', receiver.url]);
    expect(added.code, added.stderr).toBe(0);
    const id = /Added log drain (drn_\w+)/.exec(added.stdout)?.[1];
    const secret = /Signing secret \(shown only now\): (whsec_\S+)/.exec(added.stdout)?.[1];
    expect(id && secret, added.stdout).toBeTruthy();

    const listed = await cli(['drains', 'list']);
    expect(listed.stdout).toContain(`${id}  active   ${receiver.url}`);
    expect(listed.stdout).toContain('nothing delivered yet');
    expect(listed.stdout).not.toContain(secret);

    const tested = await cli(['drains', 'test', id!]);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/Delivered a test batch \(HTTP 204, \d+ ms\)/);
    const batch = receiver.requests.at(-1)!;
    expect(await verifyDelivery({ headers: batch.headers as Record<string, string>, body: batch.body, secret: secret!, now: stack.clock.now() })).toMatchObject({ ok: true });

    receiver.respond = () => 503;
    const failing = await cli(['drains', 'test', id!]);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('The test batch was not delivered: The drain answered 503');
    receiver.respond = () => 204;

    const rotated = await cli(['drains', 'rotate', id!, '--json']);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ drain: { id }, secret: expect.stringMatching(/^whsec_/) });
    expect((await cli(['drains', 'enable', id!])).stdout).toContain(`Enabled log drain ${id}`);
    expect((await cli(['drains', 'remove', id!])).stdout).toContain(`Removed log drain ${id}`);
    expect((await cli(['drains', 'list'])).stdout).toContain(`No log drains for ${appId}`);
    const gone = await cli(['drains', 'remove', id!]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('PlatformApiNotFoundError');
  });

  it('refuses wrong usage with exit 2, and a URL drains may not have with the reason', async () => {
    expect((await cli(['drains', 'frobnicate'])).code).toBe(2);
    expect((await cli(['drains', 'remove'])).stderr).toContain('platform drains remove takes one drain id');
    const bad = await cli(['drains', 'add', 'https://10.1.2.3/in']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is private');
    const help = await runCli(['drains', '--help'], { cwd: project.dir });
    expect(help.stdout).toContain('Usage: platform drains add URL');
  });
});
