/**
 * `platform deploy` uploads the app's icon (issue 21, item 2): the file beside the app
 * (`icon.png`, `.webp`, `.jpg`, `.jpeg`, `.gif`) or the one `defineApp({ icon })` names, through
 * `POST /v0/assets`, and the version's manifest names its asset id: synced for a self-hosted app,
 * handed with the bundle (`?icon=`) for a hosted one, whose manifest its code computes on a runtime
 * node. An icon that names neither an asset nor a file stops the deploy with a message saying so.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gif, png, webp } from '../fixtures/assets/images.ts';
import type { CreatedWorkspace, Stack } from '../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from '../control-plane/apps/runtime.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
const projects: TempProject[] = [];
beforeAll(async () => {
  env = await startStackWithRuntime();
  stack = env.stack;
  ws = await stack.createWorkspace();
});
afterAll(async () => {
  await env?.stop();
  for (const p of projects) await p.remove();
});

async function project(fixture: string): Promise<TempProject> {
  const p = await tempProject(fixture);
  projects.push(p);
  return p;
}

const deploy = (dir: string, ...flags: string[]) => runCli(['deploy', '--create', ...flags], { cwd: dir, env: { PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey } });
const appIdOf = async (dir: string) => (JSON.parse(await readFile(join(dir, 'platform.json'), 'utf8')) as { appId: string }).appId;
const manifestOf = async (appId: string, target: string) => (await stack.v0(ws.apiKey).get(`/apps/${appId}/manifest?target=${target}`)).body.manifest;
const uploaded = (stdout: string) => /Uploaded the icon .* \((ast_[a-z2-7]{52})\)/.exec(stdout)?.[1];

describe('platform deploy with an icon', () => {
  it('a hosted app: the icon.webp beside it is uploaded and the version (computed by its code) names it', { timeout: 60_000 }, async () => {
    const hello = await project('hello');
    await writeFile(join(hello.dir, 'icon.webp'), webp(128, 128));
    const run = await deploy(hello.dir);
    expect(run.code, run.stderr).toBe(0);
    const id = uploaded(run.stdout + run.stderr);
    expect(id).toBeDefined();
    expect((await manifestOf(await appIdOf(hello.dir), 'preview')).icon).toBe(id);
    const served = await stack.fetch(`/assets/${id}`);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await served.arrayBuffer()).equals(webp(128, 128))).toBe(true);
  });

  it('a self-hosted app: the file defineApp names is uploaded; production makes it the app\'s icon', { timeout: 60_000 }, async () => {
    const self = await project('self-hosted');
    const source = await readFile(join(self.dir, 'app.ts'), 'utf8');
    await writeFile(join(self.dir, 'app.ts'), source.replace("hosting: 'self',", "hosting: 'self',\n  icon: 'art/logo.gif',"));
    await mkdir(join(self.dir, 'art'));
    await writeFile(join(self.dir, 'art', 'logo.gif'), gif(32, 32));
    // A default-named file too: the one defineApp names wins.
    await writeFile(join(self.dir, 'icon.png'), png(4, 4));
    const run = await deploy(self.dir, '--production');
    expect(run.code, run.stderr).toBe(0);
    const id = uploaded(run.stdout + run.stderr)!;
    const appId = await appIdOf(self.dir);
    expect((await manifestOf(appId, 'production')).icon).toBe(id);
    expect((await stack.fetch(`/assets/${id}`)).headers.get('content-type')).toBe('image/gif');
    expect((await ws.client.get(`/apps/${appId}`)).body.app.icon).toBe(id);
  });

  it('an icon that names no file and no asset stops the deploy, saying so', async () => {
    const self = await project('self-hosted');
    const source = await readFile(join(self.dir, 'app.ts'), 'utf8');
    await writeFile(join(self.dir, 'app.ts'), source.replace("slug: 'notes-self',", "slug: 'notes-missing',\n  icon: 'missing.png',"));
    const run = await deploy(self.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The manifest\'s icon names missing.png, which is neither an uploaded asset id nor a file in');
  });
});

describe('a manifest naming an icon', () => {
  it('that no asset has: 422 PlatformAppManifestInvalidError reason invalid at icon; an uploaded one syncs', async () => {
    const created = await ws.client.post('/apps', { name: 'Iconic', slug: 'iconic', hosting: 'self', endpoint: { url: 'https://iconic.example.com/platform' } });
    const appId = created.body.app.id;
    const manifest = { schemaVersion: 1, name: 'Iconic', slug: 'iconic', hosting: 'self', endpoint: { url: 'https://iconic.example.com/platform' }, scopes: [] };
    const missing = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: { ...manifest, icon: `ast_${'a'.repeat(52)}` }, target: 'production' });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', path: ['icon'] });
    const upload = await stack.fetch('/v0/assets', { method: 'POST', headers: { authorization: `Bearer ${ws.apiKey}` }, body: png(16, 16) });
    expect(upload.status).toBe(201);
    const { asset } = await upload.json() as { asset: { id: string; contentType: string; width: number; height: number; url: string } };
    expect(asset).toMatchObject({ contentType: 'image/png', width: 16, height: 16, url: `${stack.config.publicUrl}/assets/${asset.id}` });
    const synced = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: { ...manifest, icon: asset.id }, target: 'production' });
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    expect((await ws.client.get(`/apps/${appId}`)).body.app.icon).toBe(asset.id);
  });

  it('POST /v0/assets refuses what is not an image, an image over 8,192 pixels a side, and over 5 MB', async () => {
    const post = (body: Uint8Array) => stack.fetch('/v0/assets', { method: 'POST', headers: { authorization: `Bearer ${ws.apiKey}` }, body });
    const svg = await post(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(svg.status).toBe(400);
    expect(await svg.json()).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', message: 'Copied images are JPEG, PNG, WebP or GIF', issues: [{ code: 'image_type' }] });
    const wide = await post(png(8193, 1));
    expect(await wide.json()).toMatchObject({ message: 'Copied images are at most 8,192 pixels per side', issues: [{ code: 'image_pixels' }] });
    expect((await post(png(2, 2, { bytes: 5 * 1024 * 1024 }))).status).toBe(201);
    const big = await post(png(2, 2, { bytes: 5 * 1024 * 1024 + 1 }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError' });
    expect((await stack.fetch('/v0/assets', { method: 'POST', body: png(2, 2) })).status).toBe(401);
  });
});
