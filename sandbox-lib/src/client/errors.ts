/**
 * @module client/errors
 * `PlatformClientError`: every failure of a `/v0` call, thrown by the client. For an error answer
 * of the service it carries the body's `_tag`, the status and the body (with the error's own
 * fields such as `scope` or `issues`). Failures the client finds itself use client-only tags that
 * never travel on the wire: `PlatformClientNetworkError` (status 0), `PlatformClientHttpError`
 * (an error status without the spec's body), `PlatformClientResponseInvalidError` (a `2xx` whose
 * body fails even the lenient response schema); a request body refused before sending carries
 * `PlatformApiInvalidRequestError` with `local: true`.
 */

type Path = Array<string | number>;

/**
 * A failed `/v0` call.
 * @example
 * catch (error) { if (error instanceof PlatformClientError && error.status === 409) reloadAndRetry() }
 */
export class PlatformClientError extends Error {
  readonly tag: string;
  readonly status: number;
  readonly body: unknown;
  readonly path: Path;
  /** True when the client refused the call before sending it. */
  readonly local: boolean;

  /**
   * @example
   * try { await api.notifications.send({ memberId, text }) }
   * catch (error) { if (error instanceof PlatformClientError && error.tag === 'PlatformAppScopeMissingError') ... }
   */
  constructor(tag: string, status: number, message: string, options: { body?: unknown; path?: Path; local?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlatformClientError';
    this.tag = tag;
    this.status = status;
    this.body = options.body;
    this.path = options.path ?? [];
    this.local = options.local === true;
  }
}

/**
 * True for a `PlatformClientError`, with an optional tag check.
 * @example if (isPlatformClientError(error, 'PlatformAppBlockVersionConflictError')) retry()
 */
export function isPlatformClientError(value: unknown, tag?: string): value is PlatformClientError {
  return value instanceof PlatformClientError && (tag === undefined || value.tag === tag);
}
