/**
 * The CLI against a real control plane and runtime node on loopback, the way an app author uses
 * it: log in with a member API key, deploy the sample hosted app (created with --create, recorded
 * in platform.json), set its environment, publish it to production and call its route on the
 * runtime node; deploy a self-hosted app (manifest sync); see the server's tagged errors.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTree, ui } from '@platform/sdk';
import type { CreatedWorkspace, Stack } from '../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from '../control-plane/apps/runtime.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let config: TempProject;
let hello: TempProject;
let self: TempProject;
const projects: TempProject[] = [];

beforeAll(async () => {
  env = await startStackWithRuntime();
  stack = env.stack;
  ws = await stack.createWorkspace({ name: 'Acme' });
  config = await tempProject();
  hello = await tempProject('hello');
  self = await tempProject('self-hosted');
  projects.push(config, hello, self);
});
afterAll(async () => {
  await env?.stop();
  for (const p of projects) await p.remove();
});

/** The CLI in `cwd`, with its own config directory (credentials stored by `login`). */
const cli = (argv: string[], cwd: string = hello.dir, extra: { PLATFORM_URL?: string; PLATFORM_API_KEY?: string } = {}) =>
  runCli(argv, { cwd, env: { PLATFORM_CONFIG_DIR: config.dir, ...extra } });

const projectFile = async (dir: string) => JSON.parse(await readFile(join(dir, 'platform.json'), 'utf8')) as { appId: string; slug: string; url: string };

describe('platform login', () => {
  it('refuses a key the service does not accept, with the tag', async () => {
    const run = await cli(['login', '--url', stack.url, '--key', 'platkey_not-a-real-key']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PlatformAppTokenInvalidError: ');
    expect(run.stderr).toContain('The service did not accept that key');
  });

  it('checks a member API key with /v0/whoami and stores it (0600)', async () => {
    const run = await cli(['login', '--url', `${stack.url}/`, '--key', ws.apiKey]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Logged in to ${stack.url} as Olive Owner (owner) in Acme (${ws.workspace.id})`);
    const file = join(config.dir, 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ url: stack.url, apiKey: ws.apiKey, memberId: ws.owner.id, workspaceId: ws.workspace.id });
  });
});

describe('platform deploy (hosted)', () => {
  it('does not create the app unless asked', async () => {
    const run = await cli(['deploy']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`None of your apps on ${stack.url} has the slug "hello". Add --create to create it, or give --app <app id>\n`);
  });

  it('creates the app with --create, prints its secrets once, uploads a preview with progress and records platform.json', async () => {
    const run = await cli(['deploy', '--create']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Created app Hello \(hello, app_\w+\), hosting platform$/m);
    expect(run.stdout).toMatch(/^ {2}client secret {3}platsec_\S+$/m);
    expect(run.stdout).toMatch(/^ {2}signing secret {2}whsec_\S+$/m);
    expect(run.stderr).toMatch(/^Uploading to preview: [\d.]+ (KB|MB) sent$/m);
    const { appId, slug, url } = await projectFile(hello.dir);
    expect({ slug, url }).toEqual({ slug: 'hello', url: stack.url });
    expect(run.stdout).toContain(`Deployed hello (${appId}) to preview: version 1`);
    expect(run.stdout).toMatch(/^ {2}bundle {5}sha256 [0-9a-f]{64} \([\d.]+ (KB|MB)\)$/m);

    // What the service recorded is what the code computes.
    const manifest = await stack.v0(ws.apiKey).get(`/apps/${appId}/manifest?target=preview`);
    expect(manifest.body).toMatchObject({ version: 1, manifest: { slug: 'hello', hosting: 'platform', blocks: [{ type: 'greeting' }], commands: [{ name: 'hello' }] } });
  });

  it('sets, lists and deletes environment variables per target', async () => {
    const plain = await cli(['env', 'set', 'GREETING=Howdy', '--plain', '--target', 'production']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^Set GREETING for production of app_\w+ \(plain\)$/m);
    const secret = await cli(['env', 'set', 'API_TOKEN=s3cret=with=equals']);
    expect(secret.code, secret.stderr).toBe(0);
    expect(secret.stdout).toContain('Set API_TOKEN for preview');
    expect(secret.stdout).toContain('(secret: its value is never shown again)');

    const list = await cli(['env', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe('preview (1)\n  API_TOKEN  (secret)\nproduction (1)\n  GREETING = Howdy\n');
    expect(list.stdout).not.toContain('s3cret');
    const { appId } = await projectFile(hello.dir);
    // The value after the first `=` is the value, `=` included; the service keeps it secret.
    expect(await stack.controlPlane.apps.envVars.environmentFor(appId, 'preview'))
      .toEqual({ env: { API_TOKEN: 's3cret=with=equals' }, secretEnvKeys: ['API_TOKEN'] });

    const removed = await cli(['env', 'delete', 'API_TOKEN']);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await cli(['env', 'list', '--target', 'preview'])).stdout).toBe('preview (0)\n');
    const again = await cli(['env', 'delete', 'API_TOKEN']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('PlatformApiNotFoundError: No variable API_TOKEN in preview (at key)');
  });

  it('publishes production; the runtime node serves the route with the production environment', async () => {
    const run = await cli(['deploy', '--production']);
    expect(run.code, run.stderr).toBe(0);
    const { appId } = await projectFile(hello.dir);
    expect(run.stdout).not.toContain('Created app');
    expect(run.stdout).toContain(`Deployed hello (${appId}) to production: version 2`);
    expect(run.stdout).toContain('  routes     served by the runtime nodes under /apps/hello/');

    const res = await fetch(`${env.runtimeUrl}/apps/hello/hello/ada`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Howdy, ada!' });
  });

  it('says so when the same code is deployed again, and prints the record alone with --json', async () => {
    const run = await cli(['deploy', '--production']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Unchanged: version 2 of hello \(app_\w+\) is already this production/m);

    const json = await cli(['deploy', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const record = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({ version: 3, target: 'preview', created: true, manifest: { slug: 'hello' } });
    expect(json.stderr).toContain('Built .platform/bundle.js');
  });

  it('finds the app by its slug without platform.json (and records it)', async () => {
    const fresh = await tempProject('hello');
    projects.push(fresh);
    const run = await cli(['deploy', '--production'], fresh.dir);
    expect(run.code, run.stderr).toBe(0);
    const { appId } = await projectFile(hello.dir);
    // The latest version is the preview of the test before, so this production is a new version.
    expect(run.stdout).not.toContain('Created app');
    expect(run.stdout).toContain(`Deployed hello (${appId}) to production: version 4`);
    expect((await projectFile(fresh.dir)).appId).toBe(appId);
  });
});

describe('platform deploy (self-hosted)', () => {
  it('syncs the manifest instead of uploading code', async () => {
    const run = await cli(['deploy', '--create'], self.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('  hosting    self-hosted at https://notes.example.com/platform');
    const { appId } = await projectFile(self.dir);
    expect(run.stdout).toContain(`Deployed notes-self (${appId}) to preview: version 1`);
    expect(run.stdout).not.toContain('  bundle ');
    expect(run.stderr).not.toContain('Uploading');

    const prod = await cli(['deploy', '--production'], self.dir);
    expect(prod.code, prod.stderr).toBe(0);
    expect(prod.stdout).toContain(`Deployed notes-self (${appId}) to production: version 2`);
    const recorded = await stack.v0(ws.apiKey).get(`/apps/${appId}/manifest`);
    expect(recorded.body).toMatchObject({ version: 2, target: 'production', manifest: { hosting: 'self', blocks: [{ type: 'note' }] } });
  });

  it('with --create, checks the bundle first: code the service cannot load creates no app', async () => {
    // Loads under Node (where `platform build` reads the manifest) but not in the runtime's
    // isolate, which has no `process`: only the service can tell.
    const broken = await tempProject();
    projects.push(broken);
    const source = (await readFile(join(hello.dir, 'app.ts'), 'utf8')).replace("slug: 'hello'", "slug: 'no-isolate'")
      .replace("name: 'Hello'", "name: 'No isolate'");
    await writeFile(join(broken.dir, 'app.ts'), `${source}\nconst nodeOnly: string = (globalThis as { process?: { versions: { node: string } } }).process!.versions.node;\nexport { nodeOnly };\n`);
    const run = await cli(['deploy', '--create'], broken.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PlatformAppBundleInvalidError: ');
    expect(run.stdout).not.toContain('Created app');
    const apps = await stack.client(ws.apiKey).get('/apps');
    expect(apps.body.items.map((a: { slug: string }) => a.slug)).not.toContain('no-isolate');
    await expect(stat(join(broken.dir, 'platform.json'))).rejects.toThrow();
  });

  it('refuses a wrong key before building or uploading anything', async () => {
    const run = await cli(['deploy'], hello.dir, { PLATFORM_URL: stack.url, PLATFORM_API_KEY: 'platkey_not-a-real-key' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PlatformAppTokenInvalidError: ');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/Built|Uploading/);
  });

  it('prints the tag, message, path and fields of a refusal', async () => {
    // The hosted sample's bundle sent to the self-hosted app: the service refuses it (422).
    const { appId } = await projectFile(self.dir);
    const run = await cli(['deploy', '--app', appId], hello.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^PlatformAppManifestInvalidError: Only hosted apps \(hosting "platform"\) upload bundles \(at hosting\)\n {2}reason: hosting-mismatch$/m);
  });

  it('deploys a manifest file with --manifest, and explains env-missing', async () => {
    const { appId } = await projectFile(self.dir);
    const manifest = {
      schemaVersion: 1, name: 'Notes', slug: 'notes-self', hosting: 'self', endpoint: { url: 'https://notes.example.com/platform' },
      env: [{ key: 'NOTES_TOKEN', secret: true, required: true }],
    };
    await writeFile(join(self.dir, 'manifest.json'), JSON.stringify(manifest));
    const refused = await cli(['deploy', '--manifest', 'manifest.json'], self.dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('reason: env-missing');
    expect(refused.stderr).toContain('Set the variable for preview first: platform env set KEY=VALUE --target preview');

    expect((await cli(['env', 'set', 'NOTES_TOKEN=t0k', '--app', appId], self.dir)).code).toBe(0);
    const synced = await cli(['deploy', '--manifest', 'manifest.json'], self.dir);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain(`Deployed notes-self (${appId}) to preview: version 3`);
  });
});

describe('platform check', () => {
  it('answers ok, or the problem with its path and exit 1, from the service and locally', async () => {
    const { tree, actions } = renderTree(ui.block({ summary: 'Hi' }, [ui.header({ title: 'Hi' }), ui.actions([ui.button({ label: 'Wave', action: 'wave' })])]));
    await writeFile(join(hello.dir, 'ok.json'), JSON.stringify({ tree, actions }));
    const bad = structuredClone(tree) as { content: Array<{ content: Array<{ type: string }> }> };
    bad.content[0]!.content[0]!.type = 'uiNoSuchThing';
    await writeFile(join(hello.dir, 'bad.json'), JSON.stringify(bad));

    for (const extra of [[], ['--local']]) {
      const ok = await cli(['check', 'ok.json', ...extra]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/^ok: ok\.json is a valid tree/);
      const invalid = await cli(['check', 'bad.json', ...extra]);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toBe('invalid: Unknown node type "uiNoSuchThing" (at content.0.content.0)\n');
    }
  });
});
