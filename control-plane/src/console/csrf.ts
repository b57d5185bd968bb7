/**
 * @module console/csrf
 * Requests that change something (any method but GET and HEAD) must come from the console's own
 * pages: the browser's `Origin` header names the console's origin (the request's own, or the
 * configured public URL behind a proxy). A missing Origin is refused too: every browser sends it
 * on POST, and the session cookie is `SameSite=Strict` besides, so a forged form from another
 * site carries neither.
 */
import type { MiddlewareHandler } from 'hono';

const SAFE = new Set(['GET', 'HEAD']);

export function sameOrigin(publicUrl: string): MiddlewareHandler {
  const configured = new URL(publicUrl).origin;
  return async (c, next) => {
    if (SAFE.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    if (origin === undefined || (origin !== own && origin !== configured)) {
      return c.json({ _tag: 'ConsoleCrossOriginError', message: 'This request did not come from a console page', path: [] }, 403);
    }
    return next();
  };
}
