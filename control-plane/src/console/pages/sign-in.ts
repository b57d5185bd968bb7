/**
 * @module console/pages/sign-in
 * Signing in and out. The member types an API key (or opens the one-time link `npm start` prints:
 * the key rides in the URL's fragment, which browsers never send to a server or put in a
 * Referer; the client script moves it into this form). The console checks the key (`GET /me`),
 * mints a session key with it (`POST /api-keys`), and, for a one-time link, revokes the link's key
 * (found by name and hint in `GET /api-keys`), so the printed URL works once.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { apiFor, messageOf, type RequestFn } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import { page } from '../kit/layout.ts';
import { clearSession, readSession, writeSession } from '../kit/session.ts';

export const SIGN_IN_LINK_KEY_NAME = 'Console sign-in link';
const SESSION_KEY_NAME = 'Console session';

/** Only a console path: never another site (`//evil.example`), never a scheme, no `..` or escapes a browser would resolve elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/console(\/[A-Za-z0-9_\-/?=&.]*)?$/.test(next) && !next.includes('..') ? next : '/console';
}

const WRONG_KEY = 'That key does not sign in to any workspace.';

/**
 * A one-time link whose key no longer signs in: used before (signing in revokes it), or from an
 * older start's data. The API answers a revoked key and an unknown one alike, and so does this:
 * it only knows the key came from a link. It says how to sign in now instead.
 */
export function usedLinkText(credentialsFile: string | null): string {
  const where = credentialsFile === null ? '' : ` (npm start wrote the owner's to ${credentialsFile})`;
  return `This sign-in link was used already (each link signs in once) or is no longer valid. Sign in with your API key below${where}, or restart npm start for a new link.`;
}

function form(assets: Assets, next: string, error: string | null) {
  return page(assets, {
    title: 'Sign in', section: 'none', me: null, flash: error === null ? null : { tone: 'danger', text: error },
    body: html`<form method="post" action="/console/sign-in" class="stack" id="sign-in">
      <input type="hidden" name="next" value="${next}"><input type="hidden" name="once" value="">
      <label for="key">Your API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required aria-describedby="key-help">
      <p id="key-help" class="muted">A member API key of your workspace (<code>npm start</code> prints one, and a sign-in link).</p>
      <button type="submit" class="primary">Sign in</button></form>`,
  });
}

export interface SignInDeps {
  request: RequestFn;
  assets: Assets;
  secure: boolean;
  /** Where `npm start` wrote the owner's API key (named when a used link is refused); `null` elsewhere. */
  credentialsFile: string | null;
}

export function registerSignIn(router: Hono<any>, deps: SignInDeps): void {
  router.get('/sign-in', (c) => c.html(form(deps.assets, safeNext(c.req.query('next')), null)));

  router.post('/sign-in', async (c) => {
    const fields = await c.req.parseBody();
    const key = typeof fields.key === 'string' ? fields.key.trim() : '';
    const next = safeNext(fields.next);
    const refused = fields.once === '1' ? usedLinkText(deps.credentialsFile) : WRONG_KEY;
    // Only key-shaped input becomes a header (anything else could not be a key anyway).
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(key)) return c.html(form(deps.assets, next, refused), 401);
    const api = apiFor(deps.request, key);
    const me = await api.get('/me');
    if (me.status !== 200) return c.html(form(deps.assets, next, me.status === 401 ? refused : messageOf(me)), 401);
    const minted = await api.post<{ key: { id: string }; apiKey: string }>('/api-keys', { name: SESSION_KEY_NAME });
    if (minted.status !== 201) return c.html(form(deps.assets, next, messageOf(minted)), 502);
    if (fields.once === '1') {
      const session = apiFor(deps.request, minted.body.apiKey);
      const keys = await session.get<{ items: Array<{ id: string; name: string; hint: string; revokedAt: string | null }> }>('/api-keys');
      const link = keys.body?.items?.find((k) => k.name === SIGN_IN_LINK_KEY_NAME && k.revokedAt === null && key.endsWith(k.hint));
      if (link !== undefined) await session.del(`/api-keys/${link.id}`);
    }
    writeSession(c, { keyId: minted.body.key.id, key: minted.body.apiKey }, deps.secure);
    return c.redirect(next, 303);
  });

  router.post('/sign-out', async (c) => {
    const session = readSession(c);
    if (session !== null) await apiFor(deps.request, session.key).del(`/api-keys/${session.keyId}`);
    clearSession(c, deps.secure);
    return c.redirect('/console/sign-in', 303);
  });
}
