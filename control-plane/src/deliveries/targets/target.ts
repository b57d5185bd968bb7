/**
 * @module deliveries/targets/target
 * Where a delivery goes, behind one interface both classes use (lifecycle from the outbox,
 * interactive from the blocks feature):
 *
 * - self-hosted app, `workspace` install → its endpoint, a signed POST (deliveries/outbound/post-json.ts);
 * - any app's `dev` install → the development relay (deliveries/relay/target.ts): `platform dev`
 *   posts it to the self-hosted app on localhost, or runs a hosted app's bundle in a local sandbox;
 * - hosted app, `workspace` install → a runtime node (deliveries/targets/runtime.ts).
 */
import type { Dispatcher } from 'undici';
import type { DeliveryClass } from '@platform/sdk';
import type { Logger } from '../../core/log/logger.ts';
import { postJson, type GuardOptions, type PostOutcome } from '../outbound/index.ts';

/**
 * Why a delivery failed: the transport's reasons, the relay's, a missing endpoint, a runtime that
 * cannot take it (`unavailable`), or a hosted app's code failing (`app-error`: it threw, or went over
 * its CPU or memory budget). A self-hosted endpoint that did not answer is `unreachable`, whatever
 * the cause (see `createEndpointTarget`).
 */
export type DeliveryFailure =
  | 'timeout' | 'too-large' | 'refused' | 'network' | 'unreachable' | 'relay-not-connected' | 'no-endpoint' | 'unavailable' | 'app-error';

/** The one text of an endpoint that did not answer: refused by our guard, refused by the host, or silent. */
export const UNREACHABLE_MESSAGE = "the app's endpoint could not be reached";

export type DeliveryOutcome =
  | { ok: true; status: number; body: Uint8Array; durationMs: number }
  | { ok: false; failure: DeliveryFailure; message: string; status?: number; durationMs: number };

/** One signed delivery, ready to send. */
export interface OutgoingDelivery {
  /** The envelope id (`webhook-id`). */
  id: string;
  deliveryClass: DeliveryClass;
  type: string;
  app: { id: string; slug: string; version: number; hosting: 'self' | 'platform'; endpointUrl: string | null };
  install: { id: string; kind: 'workspace' | 'dev' };
  /** The envelope, serialized: the exact bytes signed. */
  body: string;
  /**
   * Hosted apps: the install token, apart from the envelope (which is signed without it: hosted apps
   * never handle install tokens); the runtime node adds it to the app's own `/v0` calls.
   */
  installToken?: string | null;
  /** The spec's delivery headers (signatures included). */
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface DeliveryTarget {
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
}

/**
 * The app's own endpoint. An endpoint whose address our guard refuses, whose host refuses the
 * connection, or that stays silent until the deadline answers one outcome with one text
 * (`unreachable`): an app author pointing an endpoint at internal hosts must not learn from the
 * member's error or the Deliveries page which ports are open, closed or filtered. The cause goes to
 * the operator log only.
 * @example const endpoint = createEndpointTarget({ dispatcher: createGuardedAgent({ allowLoopback: false }), guard: { allowLoopback: false }, logger });
 */
export function createEndpointTarget(deps: { dispatcher: Dispatcher; guard: GuardOptions; logger: Logger }): DeliveryTarget {
  return {
    async send(d) {
      if (d.app.endpointUrl === null) return { ok: false, failure: 'no-endpoint', message: 'The app has no endpoint URL', durationMs: 0 };
      const outcome = await postJson({
        url: d.app.endpointUrl, body: d.body, headers: d.headers, timeoutMs: d.timeoutMs, maxResponseBytes: d.maxResponseBytes,
        dispatcher: deps.dispatcher, guard: deps.guard,
      });
      if (outcome.ok) return { ok: true, status: outcome.status, body: outcome.body, durationMs: outcome.durationMs };
      if (!isUnreachable(outcome)) return outcome;
      deps.logger.info({ deliveryId: d.id, appId: d.app.id, installId: d.install.id, cause: outcome.failure, detail: outcome.message }, 'endpoint unreachable');
      return { ok: false, failure: 'unreachable', message: UNREACHABLE_MESSAGE, durationMs: outcome.durationMs };
    },
  };
}

const isUnreachable = (outcome: Extract<PostOutcome, { ok: false }>) =>
  outcome.failure === 'timeout' || outcome.failure === 'refused' || outcome.failure === 'network';

/**
 * Picks the target of each delivery by hosting and install kind.
 * @example const target = createDeliveryRouter({ endpoint, relay, hosted: createRuntimeTarget({ … }) });
 */
export function createDeliveryRouter(targets: { endpoint: DeliveryTarget; relay: DeliveryTarget; hosted: DeliveryTarget }): DeliveryTarget {
  return {
    send(d) {
      if (d.install.kind === 'dev') return targets.relay.send(d);
      return d.app.hosting === 'platform' ? targets.hosted.send(d) : targets.endpoint.send(d);
    },
  };
}
