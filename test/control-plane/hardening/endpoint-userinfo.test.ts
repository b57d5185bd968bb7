/**
 * Addresses the platform calls never carry credentials (issue 26, hardening): an endpoint URL (or a
 * manifest's MCP server URL) with a user name or password in it is refused when saved, over real
 * HTTP, with its path: `400 PlatformApiInvalidRequestError` when an app is created through the
 * client API, the spec's `422 PlatformAppManifestInvalidError` when a manifest is synced. The
 * signature is the app's proof, and a password in a URL would be copied into logs and pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { selfManifest, uniqueSlug } from '../apps/helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
});
afterAll(async () => {
  await stack?.stop();
});

const USERINFO = /may not carry a user name or password/;
const WITH_USERINFO = [
  'https://user:pw@example.com/platform',
  'https://user@example.com/platform',
  'https://:pw@example.com/platform',
  'https://user%40corp:p%3Aw@example.com/platform',
  'http://user:pw@localhost:3000/platform',
];

const create = (url: string, slug = uniqueSlug('userinfo')) => ws.client.post('/apps', { name: 'Userinfo', slug, hosting: 'self', endpoint: { url } });

describe('creating an app', () => {
  it.each(WITH_USERINFO)('refuses the endpoint %s with its path, and creates nothing', async (url) => {
    const slug = uniqueSlug('userinfo');
    const res = await create(url, slug);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({
      _tag: 'PlatformApiInvalidRequestError',
      path: ['endpoint', 'url'],
      issues: [{ path: ['endpoint', 'url'], message: expect.stringMatching(USERINFO) }],
    });
    const apps = (await ws.client.get('/apps')).body.items as Array<{ slug: string }>;
    expect(apps.map((a) => a.slug)).not.toContain(slug);
  });

  it('keeps an @ that is not userinfo (in the path or the query)', async () => {
    const res = await create('https://example.com/hooks/team@acme?to=a@b');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.app.endpoint).toEqual({ url: 'https://example.com/hooks/team@acme?to=a@b' });
  });
});

describe('syncing a manifest', () => {
  const sync = (manifest: Record<string, unknown>) => stack.v0(ws.apiKey).put('/apps/dev', { manifest });

  it.each(WITH_USERINFO)('refuses the endpoint %s', async (url) => {
    const res = await sync(selfManifest(uniqueSlug('userinfo'), { endpoint: { url } }));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', path: ['endpoint', 'url'], message: expect.stringMatching(USERINFO) });
  });

  it('refuses an MCP server URL with a password', async () => {
    const res = await sync(selfManifest(uniqueSlug('userinfo'), { mcp: { url: 'https://bot:secret@mcp.example.com/mcp', auth: 'none' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', path: ['mcp', 'url'], message: expect.stringMatching(USERINFO) });
  });

  it('syncs the same manifest without the credentials', async () => {
    const res = await sync(selfManifest(uniqueSlug('userinfo'), { endpoint: { url: 'https://example.com/platform' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
