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
import type { DeliveryClass } from '@platform/sandbox-lib';
import { postJson, type GuardOptions } from '../outbound/index.ts';

/**
 * Why a delivery failed: the transport's reasons, the relay's, a missing endpoint, a runtime that
 * cannot take it (`unavailable`), or a hosted app's code failing (`app-error`: it threw, or went over
 * its CPU or memory budget).
 */
export type DeliveryFailure = 'timeout' | 'too-large' | 'refused' | 'network' | 'relay-not-connected' | 'no-endpoint' | 'unavailable' | 'app-error';

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
  /** The app's live signing secrets, newest first (the headers' signatures; a runtime node signs itself with the first). */
  secrets: readonly string[];
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface DeliveryTarget {
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
}

/**
 * The app's own endpoint.
 * @example const endpoint = createEndpointTarget({ dispatcher: createGuardedAgent({ allowInternal: false }), guard: { allowInternal: false } });
 */
export function createEndpointTarget(deps: { dispatcher: Dispatcher; guard: GuardOptions }): DeliveryTarget {
  return {
    async send(d) {
      if (d.app.endpointUrl === null) return { ok: false, failure: 'no-endpoint', message: 'The app has no endpoint URL', durationMs: 0 };
      const outcome = await postJson({
        url: d.app.endpointUrl, body: d.body, headers: d.headers, timeoutMs: d.timeoutMs, maxResponseBytes: d.maxResponseBytes,
        dispatcher: deps.dispatcher, guard: deps.guard,
      });
      return outcome.ok ? { ok: true, status: outcome.status, body: outcome.body, durationMs: outcome.durationMs } : outcome;
    },
  };
}

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
