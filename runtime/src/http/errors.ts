/**
 * @module http/errors
 * The one place errors become responses, for Hono routes and for the node:http fast paths alike:
 * PlatformErrors answer with their tag, status and fields; zod failures become the 400 with
 * `issues`; anything else is a 500 logged with its cause.
 */
import type { ServerResponse } from 'node:http';
import { PlatformError, invalidRequest, isPlatformError } from '@platform/sdk';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { ZodError } from 'zod';

export function toPlatformError(err: unknown, logger: Logger, path: string): PlatformError {
  if (isPlatformError(err)) return err;
  if (err instanceof ZodError) return invalidRequest(err.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message, code: i.code })));
  logger.error({ err, path }, 'unhandled error');
  return new PlatformError('PlatformApiInternalServerError', 'Internal server error');
}

export function errorResponse(err: unknown, c: Context, logger: Logger): Response {
  const error = toPlatformError(err, logger, c.req.path);
  return c.json(error.toBody(), error.status as 400);
}

/** Writes the tagged error on a node:http response (fast paths). */
export function writeError(res: ServerResponse, err: unknown, logger: Logger, path: string, extra: Record<string, string> = {}): void {
  const error = toPlatformError(err, logger, path);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(error.toBody());
  res.writeHead(error.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extra });
  res.end(body);
}
