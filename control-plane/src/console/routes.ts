/**
 * @module console/routes
 * The console at `/console`: pages for members (circles, conversations with live app cards,
 * commands, inbox, memories, search, app streams) app authors (my apps, each app's page with its
 * versions and manifest diffs, environment, domains and credentials, the Deliveries page, live logs,
 * the playground) and admins (the app directory, consent, config, suspend, resume, uninstall, the operator page of per-app metrics), server-rendered, each family in its own file
 * under pages/. Every page and action calls the platform's own `/client/v1` and `/v0` through the
 * request function the composition root hands in; the console keeps no state and reads no store.
 */
import { Hono } from 'hono';
import type { RequestFn } from './kit/api.ts';
import { apiFor } from './kit/api.ts';
import { registerAssets, type Assets } from './kit/assets.ts';
import { registerCardRoutes } from './kit/cards.ts';
import { registerLinkCardRoutes } from './kit/link-cards.ts';
import { sameOrigin } from './csrf.ts';
import type { ConsoleEnv } from './kit/env.ts';
import type { Me } from './kit/layout.ts';
import { registerAdminPages } from './pages/admin.ts';
import { registerAppAuthorPage } from './pages/app-author.ts';
import { registerAppsPage } from './pages/apps.ts';
import { registerCredentialsPage } from './pages/credentials.ts';
import { registerDomainsPage } from './pages/domains.ts';
import { registerEnvVarsPage } from './pages/env-vars.ts';
import { registerStoragePage } from './pages/storage.ts';
import { registerVersionComparePage } from './pages/version-compare.ts';
import { registerVersionsPage } from './pages/versions.ts';
import { registerConversationPages } from './pages/conversations.ts';
import { registerDeliveriesPage } from './pages/deliveries.ts';
import { registerInitiativePage } from './pages/initiative.ts';
import { registerPlaygroundPage } from './pages/playground.ts';
import { registerInboxPage } from './pages/inbox.ts';
import { registerLogsPage } from './pages/logs.ts';
import { registerErrorsPage } from './pages/errors.ts';
import { registerLogDrainsPage } from './pages/log-drains.ts';
import { registerRolloutPage } from './pages/rollout.ts';
import { registerMemoriesPage } from './pages/memories.ts';
import { registerOperatorPage } from './pages/operator.ts';
import { registerUsagePages } from './pages/usage.ts';
import { registerSearchPage } from './pages/search.ts';
import { registerStreamsPage } from './pages/streams.ts';
import { registerSignIn } from './pages/sign-in.ts';
import { isUnknownPage, notFoundPage } from './pages/not-found.ts';
import { clearSession, readSession } from './kit/session.ts';

export const CONSOLE_BASE = '/console';

export interface ConsoleDeps {
  request: RequestFn;
  /** The public URL: its origin is accepted on posts, and https makes the cookie `Secure`. */
  publicUrl: string;
  /** Asset files other than the built ones (tests). */
  assetPaths?: { css?: string; js?: string };
  /** Where `npm start` wrote the demo's API keys: the sign-in page names it when a used link is refused. */
  credentialsFile?: string | null;
}

// Scripts only from the console's own origin; inline styles are allowed for the renderer's tally
// widths (numbers it computes); images only from our origin: the service copies every image an app
// names (docs/decisions/assets.md), so a member's browser never loads one from an app's server.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
  + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * @example
 * app.route(CONSOLE_BASE, createConsole({ request: (path, init) => app.request(path, init), publicUrl }));
 */
export function createConsole(deps: ConsoleDeps): Hono<ConsoleEnv> {
  const secure = new URL(deps.publicUrl).protocol === 'https:';
  const router = new Hono<ConsoleEnv>();
  router.use('*', async (c, next) => {
    await next();
    c.header('content-security-policy', CSP);
    c.header('x-frame-options', 'DENY');
    // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts, which the CSRF check refuses.
    c.header('referrer-policy', 'same-origin');
    if (!c.res.headers.has('cache-control')) c.header('cache-control', 'no-store');
  });
  router.use('*', sameOrigin(deps.publicUrl));
  const assets: Assets = registerAssets(router, deps.assetPaths);
  registerSignIn(router, { request: deps.request, assets, secure, credentialsFile: deps.credentialsFile ?? null });

  router.use('*', async (c, next) => {
    const session = readSession(c);
    const signIn = `${CONSOLE_BASE}/sign-in?next=${encodeURIComponent(new URL(c.req.url).pathname)}`;
    if (session === null && isUnknownPage(c)) return notFoundPage(c, assets, null);
    if (session === null) return c.req.method === 'GET' ? c.redirect(signIn, 303) : c.json({ _tag: 'ConsoleSignInRequiredError', message: 'Sign in first', path: [] }, 401);
    const api = apiFor(deps.request, session.key);
    const me = await api.get<Me>('/me');
    if (me.status === 401) {
      clearSession(c, secure);
      return c.req.method === 'GET' ? c.redirect(signIn, 303) : c.json({ _tag: 'ConsoleSignInRequiredError', message: 'Your session ended; sign in again', path: [] }, 401);
    }
    c.set('api', api);
    c.set('me', me.body);
    return next();
  });
  registerCardRoutes(router);
  registerLinkCardRoutes(router);
  registerConversationPages(router, assets);
  registerInboxPage(router, assets);
  registerMemoriesPage(router, assets);
  registerSearchPage(router, assets);
  registerStreamsPage(router, assets);
  registerAppsPage(router, assets);
  registerAppAuthorPage(router, assets);
  registerVersionsPage(router, assets);
  registerVersionComparePage(router, assets);
  registerEnvVarsPage(router, assets);
  registerStoragePage(router, assets);
  registerDomainsPage(router, assets);
  registerCredentialsPage(router, assets);
  registerDeliveriesPage(router, assets);
  registerInitiativePage(router, assets);
  registerLogsPage(router, assets);
  registerErrorsPage(router, assets);
  registerLogDrainsPage(router, assets);
  registerRolloutPage(router, assets);
  registerPlaygroundPage(router, assets);
  registerAdminPages(router, assets);
  registerOperatorPage(router, assets);
  registerUsagePages(router, assets);
  // Last: any other console path is a page that does not exist.
  router.all('*', (c) => notFoundPage(c, assets, c.get('me')));
  return router;
}
