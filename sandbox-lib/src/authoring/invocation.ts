/**
 * @module authoring/invocation
 * What commands and message actions share: the surface, the invocation ids, deferral and the
 * answer sent later through `POST /v0/invocations/respond`.
 */
import type { InvocationAnswer, Surface } from '../delivery/index.ts';
import type { HandlerContext } from './context.ts';
import type { Deferred, Visibility } from './deferred.ts';

export interface InvocationContext extends HandlerContext {
  readonly surface: Surface;
  readonly invocationId: string;
  readonly interactionToken: string;
  /** Answer `202` now (showing the app at work to `visibility`, default `private`); `work` runs on and calls `ctx.respond`. */
  defer(work?: () => Promise<unknown>, options?: { visibility?: Visibility }): Deferred;
  /** Sends the answer of a deferred run (within 15 minutes). */
  respond(answer: InvocationAnswer): Promise<{ ok: boolean }>;
}

/** An answer, or `deferred()`. */
export type InvocationOutput = InvocationAnswer | Deferred;
