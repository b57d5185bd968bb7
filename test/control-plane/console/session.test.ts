/**
 * The console over HTTP, without a browser: signing in mints a session key of its own held in an
 * HttpOnly, SameSite=Strict cookie; posts without the console's Origin are refused; the one-time
 * link's key is revoked when used; `next` never leaves the console; signing out revokes the session;
 * assets are served by hash with a year-long immutable cache; pages carry their security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let origin: string;

beforeAll(async () => {
  stack = await startStack();
  origin = new URL(stack.url).origin;
  ws = await stack.createWorkspace({ ownerName: 'Ada' });
  expect((await ws.client.post('/circles', { name: 'General <script>', visibility: 'public' })).status).toBe(201);
});

afterAll(async () => {
  await stack.stop();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function signIn(key: string, extra: Record<string, string> = {}, headers: Record<string, string> = { origin: '' }): Promise<Response> {
  return stack.fetch('/console/sign-in', {
    method: 'POST', redirect: 'manual', body: form({ key, ...extra }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers, ...(headers.origin === '' ? { origin } : {}) },
  });
}

const cookieOf = (res: Response) => res.headers.get('set-cookie')?.split(';')[0] ?? '';

describe('console sessions', () => {
  it('sends a visitor without a session to sign in, keeping where they were going', async () => {
    const res = await stack.fetch('/console/inbox', { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/sign-in?next=%2Fconsole%2Finbox');
    const post = await stack.fetch('/console/blocks/blk_1/click', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(401);
    expect(await post.json()).toMatchObject({ _tag: 'ConsoleSignInRequiredError' });
  });

  it('signs in with a member key: a session key of its own in an HttpOnly, SameSite=Strict cookie', async () => {
    const res = await signIn(ws.apiKey, { next: '/console/memories' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/memories');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^platform_console=[A-Za-z0-9_-]+;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/console');
    expect(cookie).not.toContain('Secure'); // http here; https public URLs get Secure
    // The cookie holds a fresh key, not the one typed.
    expect(Buffer.from(cookieOf(res).split('=')[1]!, 'base64url').toString()).not.toContain(ws.apiKey);
    const keys = (await ws.client.get('/api-keys')).body.items as Array<{ name: string; revokedAt: string | null }>;
    expect(keys.filter((k) => k.name === 'Console session' && k.revokedAt === null)).toHaveLength(1);

    const page = await stack.fetch('/console', { headers: { cookie: cookieOf(res) } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('General &lt;script&gt;');
    expect(html).not.toContain('General <script>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a wrong key, and input that is not key-shaped, with the sign-in form again', async () => {
    for (const key of ['platkey_nope', 'two\nlines', '']) {
      const res = await signIn(key);
      expect(res.status).toBe(401);
      expect(await res.text()).toContain('That key does not sign in to any workspace.');
    }
  });

  it('refuses posts without the console\'s own Origin', async () => {
    for (const headers of [{}, { origin: 'https://evil.example' }, { origin: 'null' }]) {
      const res = await stack.fetch('/console/sign-in', { method: 'POST', redirect: 'manual', body: form({ key: ws.apiKey }), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ _tag: 'ConsoleCrossOriginError', message: 'This request did not come from a console page', path: [] });
    }
  });

  it('never sends a member elsewhere than the console after signing in', async () => {
    for (const next of ['//evil.example/x', 'https://evil.example', '/client/v1/me', '/console/../x\\y', '/console/../client/v1/me', '/console/%2e%2e/x']) {
      const res = await signIn(ws.apiKey, { next });
      expect(res.headers.get('location'), next).toBe('/console');
    }
  });

  it('a sign-in link\'s key works once; used again, the page says so and how to sign in now', async () => {
    const link = (await ws.client.post('/api-keys', { name: 'Console sign-in link' })).body.apiKey as string;
    expect((await signIn(link, { once: '1' })).status).toBe(303);
    expect((await stack.client(link).get('/me')).status).toBe(401);
    const again = await signIn(link, { once: '1' });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    const text = await again.text();
    // This stack is not npm start: no credentials file to name.
    expect(text).toContain('This sign-in link was used already (each link signs in once) or is no longer valid. Sign in with your API key below, or restart npm start for a new link.');
    expect(text).toContain('id="sign-in"');
    // A key typed into the form (no link) that does not sign in reads as before.
    expect(await (await signIn(link)).text()).toContain('That key does not sign in to any workspace.');
  });

  it('signing out revokes the session key and clears the cookie', async () => {
    const res = await signIn(ws.apiKey);
    const cookie = cookieOf(res);
    const key = (JSON.parse(Buffer.from(cookie.split('=')[1]!, 'base64url').toString()) as { key: string }).key;
    expect((await stack.client(key).get('/me')).status).toBe(200);
    const out = await stack.fetch('/console/sign-out', { method: 'POST', redirect: 'manual', headers: { origin, cookie } });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^platform_console=;.*Max-Age=0/);
    expect((await stack.client(key).get('/me')).status).toBe(401);
    const after = await stack.fetch('/console', { redirect: 'manual', headers: { cookie } });
    expect(after.headers.get('location')).toBe('/console/sign-in?next=%2Fconsole');
  });
});

describe('unknown console pages', () => {
  it('answer an HTML 404 page with a way back, signed in (with the navigation) or not', async () => {
    const cookie = cookieOf(await signIn(ws.apiKey));
    for (const path of ['/console/nope', '/console/apps/app_1/nope/deeper', '/console/sign-out']) {
      const signedOut = await stack.fetch(path, { redirect: 'manual' });
      expect(signedOut.status, path).toBe(404);
      expect(signedOut.headers.get('content-type')).toMatch(/^text\/html/);
      const out = await signedOut.text();
      expect(out).toContain('<h1>Page not found</h1>');
      expect(out).toContain('href="/console/sign-in"');
      expect(out).not.toContain('aria-label="Console"');

      const signedIn = await stack.fetch(path, { headers: { cookie } });
      expect(signedIn.status, path).toBe(404);
      const body = await signedIn.text();
      expect(body).toContain('<h1>Page not found</h1>');
      expect(body).toContain(`<code>${path}</code>`);
      expect(body).toContain('<a href="/console">Back to your circles</a>');
      expect(body).toContain('aria-label="Console"');
      expect(signedIn.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    // A path the page cannot show as written is escaped, not echoed.
    expect(await (await stack.fetch('/console/%3Cscript%3E', { headers: { cookie } })).text()).not.toContain('<script>');
  });

  it('known pages still send a visitor to sign in, and unknown API paths keep their JSON errors', async () => {
    expect((await stack.fetch('/console/apps', { redirect: 'manual' })).status).toBe(303);
    for (const path of ['/client/v1/nope', '/v0/nope']) {
      const res = await stack.fetch(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ _tag: 'PlatformApiNotFoundError' });
    }
  });
});

describe('console assets', () => {
  it('serves the stylesheet and script by content hash with an immutable cache', async () => {
    const html = await (await stack.fetch('/console/sign-in')).text();
    const css = /href="(\/console\/assets\/console\.[0-9a-f]{12}\.css)"/.exec(html)?.[1];
    expect(css).toBeDefined();
    const res = await stack.fetch(css!);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await res.text()).toContain('.pb-block');
    const js = /src="(\/console\/assets\/console\.[0-9a-f]{12}\.js)"/.exec(html)?.[1];
    expect(js, 'npm ci builds the client script (scripts/build-packages.mjs)').toBeDefined();
    expect((await stack.fetch(js!)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const stale = await stack.fetch('/console/assets/console.000000000000.css');
    expect(stale.status).toBe(404);
    expect(await stale.json()).toMatchObject({ _tag: 'ConsoleAssetNotFoundError' });
  });
});
