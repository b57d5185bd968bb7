/**
 * @module core/http/transport-limits
 * Refusals made before a request reaches a route, with the same tagged JSON body as every other
 * error: a URL longer than `MAX_URL_BYTES` (`414`, a middleware) and a request line plus headers
 * over Node's `maxHeaderSize` (`431`). Node's HTTP parser refuses the latter itself and, left alone,
 * writes a bare status line; the server's `clientError` event lets us write the tagged body
 * instead (and a tagged `400` for the other malformed requests the parser refuses), after the answers
 * to the pipelined requests before the bad bytes.
 */
import type { Server } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { PlatformError } from '@platform/sdk';
import { answerClientErrorsInOrder } from '@platform/sdk/node';
import type { Logger } from '../log/logger.ts';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

/** Longest URL (path and query) a route is asked to read; longer ones answer `414`. */
export const MAX_URL_BYTES = 8 * 1024;

/** Node's default `maxHeaderSize` (16 KB): the request line and headers together. */
export { MAX_HEADER_BYTES } from '@platform/sdk/node';

/** `414 PlatformApiUriTooLongError` for URLs over `MAX_URL_BYTES`. */
export const uriLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  // The request target: from the first `/` after the scheme's `//` (no URL parsing on every request).
  const url = c.req.url;
  const length = url.length - url.indexOf('/', url.indexOf('//') + 2);
  if (length > MAX_URL_BYTES) {
    return errorResponse(c, new PlatformError('PlatformApiUriTooLongError', `The URL is longer than ${MAX_URL_BYTES} bytes`, { fields: { limit: MAX_URL_BYTES } }));
  }
  await next();
};

/**
 * Malformed bytes get the tagged refusal after the answers their connection already owes
 * (pipelined requests before them are answered in order: `answerClientErrorsInOrder`).
 * @example onClientError(server, logger)
 */
export function onClientError(server: Server, logger: Logger): void {
  answerClientErrorsInOrder(server, { onRefusal: (err) => logger.debug({ code: err.code }, 'client error') });
}
