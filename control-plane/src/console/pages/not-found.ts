/**
 * @module console/pages/not-found
 * A console path that is no page: a 404 page in the console's frame (with the navigation when
 * signed in), a link back, and the path asked for. Unknown API paths (`/v0`, `/client/v1`) keep
 * their JSON errors; only the console's own paths are pages.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import { matchedRoutes } from 'hono/route';
import type { Assets } from '../kit/assets.ts';
import { page, type Me } from '../kit/layout.ts';

/**
 * No page matches the request: only the wildcard middleware (and this page's own catch-all) did.
 * Asked before the session check, so a signed-out visitor is not sent to sign in for a page that
 * does not exist.
 */
export function isUnknownPage(c: Context): boolean {
  return matchedRoutes(c).every((route) => route.path.endsWith('*'));
}

/** The 404 page; `me` is null when nobody is signed in. */
export function notFoundPage(c: Context, assets: Assets, me: Me | null) {
  const path = new URL(c.req.url).pathname;
  const back = me === null
    ? html`<p><a href="/console/sign-in">Sign in</a> to see your circles, conversations and apps.</p>`
    : html`<p><a href="/console">Back to your circles</a> · <a href="/console/apps">My apps</a></p>`;
  return c.html(page(assets, {
    title: 'Page not found', section: 'none', me,
    body: html`<p>There is no console page at <code>${path}</code>. It may have moved, or the link may be cut short.</p>${back}`,
  }), 404);
}
