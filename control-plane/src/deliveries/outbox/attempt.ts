/**
 * @module deliveries/outbox/attempt
 * One attempt of one claimed lifecycle delivery: decide whether to send at all (paused, suspended
 * or uninstalled installs), prepare and send it through the delivery pipeline
 * (deliveries/pipeline/pipeline.ts), and turn the answer into the outcome the loop records. Any `2xx` within 15 s acknowledges; `410` pauses the
 * install; anything else is retried on the schedule, then dead.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { DeliveryPipeline } from '../pipeline/pipeline.ts';
import { recordedAnswer } from '../pipeline/recorded-answer.ts';
import type { AttemptSummary } from './health.ts';
import { afterFailure, SCHEDULE } from './schedule.ts';
import type { BatchInstall, ClaimedRow, OutcomeRow } from './store.ts';

/** Lifecycle answers mean nothing but their status (their start is kept for the page); reading stops after this many bytes. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** A suspended install receives nothing; its deliveries look again this much later (no attempt counted). */
export const SUSPENDED_RECHECK_MS = 60 * 60 * 1000;

export interface AttemptDeps {
  clock: Clock;
  pipeline: DeliveryPipeline;
  random?: () => number;
}

export interface AttemptResult {
  outcome: OutcomeRow;
  summary: AttemptSummary | null;
}

const trim = (text: string) => (text.length > 500 ? `${text.slice(0, 497)}...` : text);

/** An outcome that made no request: the claimed attempt is given back. */
function noRequest(d: ClaimedRow, lease: string, now: Date, status: OutcomeRow['status'], nextAt: Date | null, reason: string): AttemptResult {
  return {
    outcome: { id: d.id, lease, status, next_at: nextAt, undo: 1, attempt: d.attempts, started_at: now, duration_ms: null, last_status: null, last_error: reason, delivered_at: null },
    summary: null,
  };
}

/**
 * @example
 * const { outcome, summary } = await attemptDelivery(claimed, installs.get(claimed.install_id), lease, { clock, pipeline });
 */
export async function attemptDelivery(d: ClaimedRow, install: BatchInstall | undefined, lease: string, deps: AttemptDeps): Promise<AttemptResult> {
  const started = new Date(deps.clock.now());
  if (install === undefined) return noRequest(d, lease, started, 'cancelled', null, 'The install no longer exists');
  const { target } = install;
  if (install.pausedAt !== null) return noRequest(d, lease, started, 'paused', null, 'Deliveries to this install are paused');
  if (target.installStatus === 'suspended') {
    return noRequest(d, lease, started, 'pending', new Date(started.getTime() + SUSPENDED_RECHECK_MS), 'The install is suspended');
  }
  const uninstalled = target.installStatus === 'uninstalled';
  if (uninstalled && d.type !== 'app.uninstalled') return noRequest(d, lease, started, 'cancelled', null, 'The app was uninstalled first');

  const delivery = await deps.pipeline.prepare({
    id: d.id, deliveryClass: 'lifecycle', type: d.type, createdAt: d.created_at, target, actor: d.actor, data: d.payload,
    // Every delivery carries an install token (the spec's envelope table), `app.uninstalled` too:
    // the install is no longer active, so calls with it answer PlatformAppInstallRevokedError.
    withInstallToken: true, timeoutMs: SCHEDULE.ackTimeoutMs, maxResponseBytes: MAX_RESPONSE_BYTES,
  });
  const answer = await deps.pipeline.send(delivery);
  const done = new Date(deps.clock.now());
  const kept = answer.ok ? recordedAnswer(answer.body) : null;
  const base = {
    id: d.id, lease, undo: 0 as const, attempt: d.attempts, started_at: started, duration_ms: Math.round(answer.durationMs),
    response: kept?.text ?? null, response_truncated: kept?.truncated ?? false,
  };

  if (answer.ok && answer.status >= 200 && answer.status < 300) {
    return {
      outcome: { ...base, status: 'delivered', next_at: null, last_status: answer.status, last_error: null, delivered_at: done },
      summary: { installId: target.installId, kind: 'delivered', at: done },
    };
  }
  const status = answer.status ?? null;
  if (status === 410) {
    return {
      outcome: { ...base, status: 'paused', next_at: null, last_status: 410, last_error: 'The app answered 410: deliveries to this install are paused', delivered_at: null },
      summary: { installId: target.installId, kind: 'gone', at: done },
    };
  }
  const error = answer.ok ? `The app answered ${answer.status}` : trim(`${answer.failure}: ${answer.message}`);
  const next = afterFailure(d.schedule_attempts, done.getTime(), deps.random, d.max_attempts ?? SCHEDULE.maxAttempts);
  return {
    outcome: next.kind === 'retry'
      ? { ...base, status: 'pending', next_at: next.at, last_status: status, last_error: error, delivered_at: null }
      : { ...base, status: 'dead', next_at: null, last_status: status, last_error: error, delivered_at: null },
    summary: { installId: target.installId, kind: 'failed', at: done },
  };
}
