/**
 * @module core/http/errors
 * The one mapping from thrown errors to responses. A `PlatformError` answers with its own status and
 * body; anything else is our fault: logged with its cause and answered with a bare 500, so internals
 * never reach the caller. Unknown routes answer a tagged 404.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { PlatformError, isPlatformError } from '@platform/sdk';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { AppEnv } from './env.ts';

/** Seconds a caller is told to wait while the database is unreachable (a restart takes about this long). */
const DATABASE_RETRY_AFTER_S = 1;

export function errorResponse(c: Context, err: PlatformError): Response {
  return c.json(err.toBody(), err.status as ContentfulStatusCode);
}

/** Hono's own exceptions (for example from its middleware) mapped onto our tags by status. */
function fromHttpException(err: HTTPException): PlatformError {
  if (err.status === 413) return new PlatformError('PlatformApiPayloadTooLargeError', 'The request body is too large');
  if (err.status === 401) return new PlatformError('PlatformAppTokenInvalidError', 'The credential is invalid');
  if (err.status === 404) return new PlatformError('PlatformApiNotFoundError', 'Not found');
  if (err.status < 500) return new PlatformError('PlatformApiInvalidRequestError', err.message || 'Bad request', { fields: { issues: [] } });
  return new PlatformError('PlatformApiInternalServerError', 'Internal server error', { cause: err });
}

/**
 * Whether the caller hung up before its request was whole (less body than its Content-Length, then
 * a closed connection): reading the body fails with a connection reset that is theirs, not ours.
 */
function clientAborted(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.readableAborted);
}

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const log = c.get('log');
  let mapped: PlatformError;
  if (clientAborted(c) && !isPlatformError(err)) {
    // Nobody is left to read the answer; the access log records a client fault, not a 5xx of ours.
    log?.info({ code: (err as NodeJS.ErrnoException).code }, 'client aborted the request');
    return errorResponse(c, new PlatformError('PlatformApiInvalidRequestError', 'The client closed the connection before the request body was complete', { fields: { issues: [] } }));
  }
  if (isPlatformError(err)) {
    mapped = err;
  } else if (err instanceof HTTPException) {
    mapped = fromHttpException(err);
  } else if (isDatabaseUnavailable(err)) {
    // Not the caller's fault and not a bug: retryable, and said so.
    c.header('retry-after', String(DATABASE_RETRY_AFTER_S));
    mapped = new PlatformError('PlatformApiServiceUnavailableError', 'The service is briefly unavailable; retry shortly', { cause: err });
  } else {
    mapped = new PlatformError('PlatformApiInternalServerError', 'Internal server error', { cause: err });
  }
  if (mapped.status >= 500) {
    log?.error({ err, tag: mapped.tag, fault: mapped.fault }, 'request failed');
  } else {
    log?.debug({ tag: mapped.tag }, 'request rejected');
  }
  return errorResponse(c, mapped);
};

export const notFound: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(c, new PlatformError('PlatformApiNotFoundError', `No route for ${c.req.method} ${c.req.path}`));
