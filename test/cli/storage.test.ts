/**
 * `platform storage get|set|list|delete` as a process against a control plane on loopback: the
 * development install's data by default, the workspace install's with `--install workspace`, JSON
 * values in and out, and usage errors before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboxWorld, type InboxWorld, type Installed } from '../control-plane/notifications/setup.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

let w: InboxWorld;
let dev: Installed;
let app: Installed;
let project: TempProject;
beforeAll(async () => {
  w = await startInboxWorld();
  dev = await w.devApp([]);
  app = await w.installApp([], 'Stored');
  project = await tempProject();
});
afterAll(async () => {
  await w?.stop();
  await project?.remove();
});

const cli = (argv: string[], apiKey = w.developer.apiKey) => runCli(['storage', ...argv], { cwd: project.dir, env: { PLATFORM_URL: w.stack.url, PLATFORM_API_KEY: apiKey } });
const value = async (on: Installed, key: string) => (await (await on.api()).post('/storage/get', { keys: [key] })).body.entries[0].value;

describe('platform storage', () => {
  it('sets, gets, lists and deletes in the development install\'s data by default', async () => {
    const set = await cli(['set', 'greeting', '{"text":"hi"}', '--app', dev.appId]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^Set greeting \(versionstamp [0-9a-f]{20}\)/);
    expect(await value(dev, 'greeting')).toEqual({ text: 'hi' });
    await cli(['set', 'gone', '1', '--app', dev.appId]);
    const got = await cli(['get', 'greeting', 'nothing', '--app', dev.appId]);
    expect(got.stdout.trim().split('\n')).toEqual(['greeting\t{"text":"hi"}', 'nothing\t(absent)']);
    const listed = await cli(['list', '--prefix', 'g', '--app', dev.appId]);
    expect(listed.stdout.trim().split('\n')).toEqual(['gone\t1', 'greeting\t{"text":"hi"}']);
    const deleted = await cli(['delete', 'gone', '--app', dev.appId]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(await value(dev, 'gone')).toBeNull();
  });

  it('reaches the workspace install\'s data with --install workspace (the owner\'s key)', async () => {
    const set = await cli(['set', 'mode', '"live"', '--install', 'workspace', '--app', app.appId], w.ws.apiKey);
    expect(set.code, set.stderr).toBe(0);
    expect(await value(app, 'mode')).toBe('live');
  });

  it('refuses bad input before sending anything, and answers a service refusal with its tag', async () => {
    const notJson = await cli(['set', 'k', 'not json', '--app', dev.appId]);
    expect(notJson.code).not.toBe(0);
    expect(notJson.stderr).toContain('The value is JSON');
    const badInstall = await cli(['get', 'k', '--install', 'staging', '--app', dev.appId]);
    expect(badInstall.stderr).toContain('--install is dev or workspace');
    const tooLong = await cli(['set', 'k'.repeat(513), '1', '--app', dev.appId]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('PlatformAppStorageLimitExceededError');
  });
});
