/**
 * @module core/http/request-context
 * First middleware of every request: picks the request id (the caller's `x-request-id` when it is
 * sane, a fresh one otherwise), puts a child logger carrying it on the context, echoes it in the
 * response header, and writes one access-log line when the request ends: at `info` where logs are
 * JSON (an operator's access log), at `debug` at a developer's terminal (`npm start`: one line per
 * request of the console would scroll the sign-in link away; LOG_LEVEL=debug shows them).
 */
import type { MiddlewareHandler } from 'hono';
import { newId } from '../ids/ids.ts';
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import type { AppEnv } from './env.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

// Ids from callers end up in logs and headers: short, printable, no spaces or separators that could
// forge a log field or split a header.
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && SANE_ID.test(header) ? header : newId('request');
}

/**
 * @example
 * app.use('*', requestContext({ logger, clock }));
 */
export function requestContext(deps: { logger: Logger; clock: Clock; accessLevel?: 'info' | 'debug' }): MiddlewareHandler<AppEnv> {
  const level = deps.accessLevel ?? 'info';
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    const log = deps.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    // Set before the response exists, so every response made through the context (errors and
    // not-found answers included) carries it. Setting it afterwards would turn the Node adapter's
    // prepared response back into a streamed one, which costs more than the rest of a small answer.
    c.header(REQUEST_ID_HEADER, requestId);
    const started = deps.clock.now();
    try {
      await next();
    } finally {
      log[level]({ method: c.req.method, path: c.req.path, status: c.res.status, ms: deps.clock.now() - started }, 'request');
    }
  };
}
