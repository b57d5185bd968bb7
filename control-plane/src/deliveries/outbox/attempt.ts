/**
 * @module deliveries/outbox/attempt
 * One attempt of one claimed lifecycle delivery: decide whether to send at all (paused, suspended
 * or uninstalled installs), build and sign the envelope, send it through the target, and turn the
 * answer into the outcome the loop records. Any `2xx` within 15 s acknowledges; `410` pauses the
 * install; anything else is retried on the schedule, then dead.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { DeliveryTarget } from '../targets/target.ts';
import { deliveryHeadersSync } from '@platform/sandbox-lib/node';
import { envelopeJson } from '../pipeline/envelope.ts';
import type { AttemptSummary } from './health.ts';
import { afterFailure, SCHEDULE } from './schedule.ts';
import type { ClaimedRow, InstallTargetRow, OutcomeRow } from './store.ts';

/** Lifecycle answers are ignored; reading stops after this many bytes. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** A suspended install receives nothing; its deliveries look again this much later (no attempt counted). */
export const SUSPENDED_RECHECK_MS = 60 * 60 * 1000;

/** What every delivery of one install in a batch shares. */
export interface InstallContext {
  row: InstallTargetRow;
  /** Live signing secrets, newest first. */
  secrets: string[];
  config: Record<string, unknown> | undefined;
  /** A fresh install token (minted once per install and batch). */
  token(): Promise<{ token: string; expiresAt: number }>;
}

export interface AttemptDeps {
  clock: Clock;
  target: DeliveryTarget;
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
 * const { outcome, summary } = await attemptDelivery(claimed, contexts.get(claimed.install_id), lease, { clock, target });
 */
export async function attemptDelivery(d: ClaimedRow, ctx: InstallContext | undefined, lease: string, deps: AttemptDeps): Promise<AttemptResult> {
  const started = new Date(deps.clock.now());
  if (ctx === undefined) return noRequest(d, lease, started, 'cancelled', null, 'The install no longer exists');
  const install = ctx.row;
  if (install.deliveries_paused_at !== null) return noRequest(d, lease, started, 'paused', null, 'Deliveries to this install are paused');
  if (install.status === 'suspended') {
    return noRequest(d, lease, started, 'pending', new Date(started.getTime() + SUSPENDED_RECHECK_MS), 'The install is suspended');
  }
  const uninstalled = install.status === 'uninstalled';
  if (uninstalled && d.type !== 'app.uninstalled') return noRequest(d, lease, started, 'cancelled', null, 'The app was uninstalled first');

  // An uninstalled install's tokens are refused, so its last event carries none.
  const token = uninstalled ? null : await ctx.token();
  const body = envelopeJson({
    id: d.id, type: d.type, createdAt: d.created_at,
    app: { id: install.app_id, slug: install.slug, version: install.version },
    install: { id: install.id, workspaceId: install.workspace_id, kind: install.kind, config: ctx.config },
    installToken: token, actor: d.actor, data: d.payload,
  });
  const headers = deliveryHeadersSync({
    id: d.id, timestamp: Math.floor(deps.clock.now() / 1000), body, secrets: ctx.secrets, deliveryClass: 'lifecycle', installId: install.id,
  });
  const answer = await deps.target.send({
    id: d.id, deliveryClass: 'lifecycle', type: d.type,
    app: { id: install.app_id, slug: install.slug, version: install.version, hosting: install.hosting, endpointUrl: install.endpoint_url },
    install: { id: install.id, kind: install.kind },
    body, headers, secrets: ctx.secrets, timeoutMs: SCHEDULE.ackTimeoutMs, maxResponseBytes: MAX_RESPONSE_BYTES,
  });
  const done = new Date(deps.clock.now());
  const base = { id: d.id, lease, undo: 0 as const, attempt: d.attempts, started_at: started, duration_ms: Math.round(answer.durationMs) };

  if (answer.ok && answer.status >= 200 && answer.status < 300) {
    return {
      outcome: { ...base, status: 'delivered', next_at: null, last_status: answer.status, last_error: null, delivered_at: done },
      summary: { installId: install.id, kind: 'delivered', at: done },
    };
  }
  const status = answer.status ?? null;
  if (status === 410) {
    return {
      outcome: { ...base, status: 'paused', next_at: null, last_status: 410, last_error: 'The app answered 410: deliveries to this install are paused', delivered_at: null },
      summary: { installId: install.id, kind: 'gone', at: done },
    };
  }
  const error = answer.ok ? `The app answered ${answer.status}` : trim(`${answer.failure}: ${answer.message}`);
  const next = afterFailure(d.schedule_attempts, done.getTime(), deps.random);
  return {
    outcome: next.kind === 'retry'
      ? { ...base, status: 'pending', next_at: next.at, last_status: status, last_error: error, delivered_at: null }
      : { ...base, status: 'dead', next_at: null, last_status: status, last_error: error, delivered_at: null },
    summary: { installId: install.id, kind: 'failed', at: done },
  };
}
