/**
 * @module core/rate-limit/rate-limit
 * Sliding-window rate limits on the Kv seam (Redis with replicas, the in-process stand-in else):
 * each allowed request is one entry of a per-key log, and a request is refused while `limit`
 * entries are younger than `windowMs`. Refused requests are not counted, so a client that backs
 * off as `retry-after` says gets through.
 *
 * A refusal is a `RateLimitExceededError` (429 `PlatformApiRateLimitExceededError`); the
 * `retryAfterHeader` middleware, installed once on the app, adds its `retry-after` header (whole
 * seconds, rounded up) to the error response.
 */
import type { MiddlewareHandler } from 'hono';
import { PlatformError } from '@platform/sdk';
import type { Kv } from '../kv/kv.ts';

export class RateLimitExceededError extends PlatformError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterMs: number, message: string) {
    super('PlatformApiRateLimitExceededError', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

export interface RateLimitOptions {
  /** What is counted, e.g. `check-trees:member:mem_…`; keys share one namespace under `rl:`. */
  key: string;
  limit: number;
  windowMs: number;
  /** The refusal's message (default names the limit). */
  message?: string;
}

/**
 * Counts one request under `key`, or throws the 429 when the window is full.
 *
 * @example
 * await rateLimit(kv, { key: `memories:${caller.installId}`, limit: 60, windowMs: 60_000 });
 */
export async function rateLimit(kv: Kv, options: RateLimitOptions): Promise<void> {
  const hit = await kv.hit(`rl:${options.key}`, options.limit, options.windowMs);
  if (hit.allowed) return;
  throw new RateLimitExceededError(hit.retryAfterMs,
    options.message ?? `Too many requests: at most ${options.limit} every ${formatWindow(options.windowMs)}`);
}

function formatWindow(ms: number): string {
  if (ms === 60_000) return 'minute';
  if (ms % 60_000 === 0) return `${ms / 60_000} minutes`;
  return `${Math.ceil(ms / 1000)} seconds`;
}

/** Adds `retry-after` to the response of a request that failed with a rate-limit refusal. */
export const retryAfterHeader: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.error instanceof RateLimitExceededError) c.res.headers.set('retry-after', String(c.error.retryAfterSeconds));
};
