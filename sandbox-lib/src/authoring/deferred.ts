/**
 * @module authoring/deferred
 * Answering `202` (spec "Endpoints the service calls on the app", rule 5): a handler of
 * `block.action`, `command.run` or `messageAction.run` returns `deferred(...)` (or calls
 * `ctx.defer(...)`), and sends its result later: a block through `PATCH /v0/blocks/{id}` with the
 * interaction token, a command or message action through `POST /v0/invocations/respond`.
 */

const DEFERRED = Symbol.for('platform.authoring.deferred');

export type Visibility = 'public' | 'private';

/** The marker a handler returns to answer `202`. */
export interface Deferred {
  readonly [DEFERRED]: true;
  /** Who sees the app working (commands and message actions): everyone on the surface, or only the invoker. */
  readonly visibility: Visibility;
}

/**
 * Answer `202` now and finish within 15 minutes. `visibility` (default `private`) matters for
 * commands and message actions; block actions answer with an empty body.
 * @example
 * handler: (ctx) => { ctx.waitUntil(longJob(ctx)); return deferred({ visibility: 'public' }) }
 */
export function deferred(options: { visibility?: Visibility } = {}): Deferred {
  return { [DEFERRED]: true, visibility: options.visibility ?? 'private' };
}

/**
 * True for the marker `deferred()` returns.
 * @example isDeferred(deferred()) // true
 */
export function isDeferred(value: unknown): value is Deferred {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DEFERRED] === true;
}
