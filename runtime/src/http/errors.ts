/**
 * @module http/errors
 * The one place errors become responses: PlatformErrors answer with their tag, status and fields;
 * zod failures become the 400 with `issues`; anything else is a 500 logged with its cause.
 */
import { PlatformError, invalidRequest, isPlatformError } from '@platform/sandbox-lib';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { ZodError } from 'zod';

export function errorResponse(err: unknown, c: Context, logger: Logger): Response {
  let error: PlatformError;
  if (isPlatformError(err)) error = err;
  else if (err instanceof ZodError) error = invalidRequest(err.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message, code: i.code })));
  else {
    logger.error({ err, path: c.req.path }, 'unhandled error');
    error = new PlatformError('PlatformApiInternalServerError', 'Internal server error');
  }
  return c.json(error.toBody(), error.status as 400);
}
