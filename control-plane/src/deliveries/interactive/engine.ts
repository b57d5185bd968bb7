/**
 * @module deliveries/interactive/engine
 * The interactive delivery engine, generic over the eight interactive types: a fresh id
 * (`webhook-id`), then the delivery pipeline (deliveries/pipeline/pipeline.ts: the envelope with
 * the install's config and an install token, signed, sent to the endpoint of a self-hosted app,
 * the development relay for `dev` installs, or a runtime node for hosted apps); it waits at most the
 * type's time (5 s; 30 s for commands and message actions), reads at most 1 MB, never follows a
 * redirect and never retries. The answer is read by deliveries/interactive/answer.ts; every
 * delivery that was sent is recorded for the Deliveries page.
 */
import { LIMITS, isPlatformError, type InteractiveResult, type InteractiveType } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import { idMaker } from '../../core/ids/ids.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { InstallTarget } from '../pipeline/install-target.ts';
import type { DeliveryPipeline } from '../pipeline/pipeline.ts';
import { readAnswer, type FailureReason } from './answer.ts';
import { recordedFailure } from './failures.ts';
import { recordedAnswer } from '../pipeline/recorded-answer.ts';
import { requestRecord } from './request-record.ts';
import type { EngineMetrics } from './metrics.ts';
import type { DeliveryRecorder } from './recorder.ts';

export type { FailureReason } from './answer.ts';

export interface DeliverInput<T extends InteractiveType> {
  type: T;
  target: InstallTarget;
  /** The member who caused the delivery; null leaves `actor` out (anonymous inputs). */
  actor: { memberId: string; name: string } | null;
  data: Record<string, unknown>;
  /**
   * What the caller checks beyond the result schema (a tree against the catalog, a state against
   * the block's schema, a tree's images copied): a problem makes the outcome `response-invalid`,
   * recorded as such. `remainingMs` is what is left of the delivery's wait (5 s, or 30 s): work the
   * check waits for (image downloads) fits in it.
   */
  check?: (result: InteractiveResult<T>, budget: { remainingMs: number }) => string | null | Promise<string | null>;
}

interface Sent {
  deliveryId: string;
  /** HTTP status of the app's answer, when it answered. */
  status: number | null;
  durationMs: number;
}

export type InteractiveOutcome<T extends InteractiveType> =
  | (Sent & { kind: 'result'; result: InteractiveResult<T> })
  | (Sent & { kind: 'deferred'; deferral: Record<string, unknown> | null })
  | (Sent & { kind: 'failed'; reason: FailureReason; message: string });

export interface InteractiveEngine {
  deliver<T extends InteractiveType>(input: DeliverInput<T>): Promise<InteractiveOutcome<T>>;
}

export interface EngineDeps {
  clock: Clock;
  logger: Logger;
  pipeline: DeliveryPipeline;
  recorder: DeliveryRecorder;
  metrics?: EngineMetrics;
}

/** Commands and message actions wait 30 s; every other interactive type 5 s. */
export function waitFor(type: InteractiveType): number {
  return type === 'command.run' || type === 'messageAction.run' ? LIMITS.actions.invocationWaitMs : LIMITS.actions.interactiveWaitMs;
}

export const newDeliveryId = idMaker('delivery');

/**
 * @example
 * const engine = createInteractiveEngine({ clock, logger, pipeline, recorder });
 * const outcome = await engine.deliver({ type: 'block.render', target, actor: null, data: { block, mode: 'interactive' } });
 */
export function createInteractiveEngine(deps: EngineDeps): InteractiveEngine {
  return {
    async deliver<T extends InteractiveType>(input: DeliverInput<T>): Promise<InteractiveOutcome<T>> {
      const { target, type } = input;
      const deliveryId = newDeliveryId();
      if (target.installStatus !== 'active') {
        return { kind: 'failed', reason: 'install-inactive', message: 'The app is uninstalled or suspended in this workspace', deliveryId, status: null, durationMs: 0 };
      }
      const startedAt = deps.clock.now();
      const app = target.app;
      const delivery = await deps.pipeline.prepare({
        id: deliveryId, deliveryClass: 'interactive', type, createdAt: new Date(startedAt), target, actor: input.actor, data: input.data,
        withInstallToken: true, timeoutMs: waitFor(type), maxResponseBytes: LIMITS.actions.responseBodyBytes,
      });
      let sent;
      try {
        sent = await deps.pipeline.send(delivery);
      } catch (err) {
        // The relay answers "not connected" by throwing its own error; nothing was delivered.
        if (!isPlatformError(err)) throw err;
        sent = { ok: false as const, failure: 'relay-not-connected' as const, message: err.message, durationMs: 0 };
      }

      const outcome: InteractiveOutcome<T> = await (async () => {
        if (!sent.ok) return { kind: 'failed', reason: sent.failure, message: sent.message, deliveryId, status: sent.status ?? null, durationMs: sent.durationMs };
        const answer = readAnswer(type, sent.status, sent.body);
        const base = { deliveryId, status: sent.status, durationMs: sent.durationMs };
        if (answer.kind === 'result') {
          const problem = (await input.check?.(answer.result, { remainingMs: startedAt + waitFor(type) - deps.clock.now() })) ?? null;
          if (problem !== null) return { ...base, kind: 'failed', reason: 'response-invalid', message: problem };
          return { ...base, kind: 'result', result: answer.result };
        }
        if (answer.kind === 'deferred') return { ...base, kind: 'deferred', deferral: answer.deferral };
        return { ...base, kind: 'failed', reason: answer.reason, message: answer.message };
      })();

      const failure = outcome.kind === 'failed' ? recordedFailure(outcome) : null;
      deps.recorder.record({
        id: deliveryId, appId: app.id, installId: target.installId, type, version: target.version, startedAt: new Date(startedAt),
        durationMs: outcome.durationMs, status: outcome.status, error: failure,
        request: requestRecord(input, target.version, delivery.body.length), response: sent.ok ? recordedAnswer(sent.body) : null,
      });
      deps.metrics?.delivery(type, outcome.kind === 'failed' ? outcome.reason : outcome.kind, outcome.durationMs, app.slug);
      if (failure !== null) deps.logger.info({ deliveryId, type, installId: target.installId, reason: failure }, 'interactive delivery failed');
      return outcome;
    },
  };
}
