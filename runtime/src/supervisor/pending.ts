/**
 * @module supervisor/pending
 * A request between the HTTP layer and a worker: its job and body (kept so it can run again on
 * another worker if its worker dies before entering it), where it is, and how it is answered. The
 * caller hears once: at the guest's response or at the end, whichever comes first.
 */
import { ERROR_TAGS, PlatformError, type ErrorTag } from '@platform/sdk';
import type { EgressContext } from '../egress/service.ts';
import type { ManifestJob, ResponseHead, RunError, RunJob, RunReport, VersionSpec } from '../protocol/messages.ts';

export type RunResult =
  | { kind: 'response'; head: ResponseHead; body: Buffer | null; report: RunReport | null }
  | { kind: 'error'; error: PlatformError; report: RunReport | null };

export interface PendingMeta {
  appId: string;
  version: number | null;
  deliveryId: string | null;
  /** The install a delivery is for (`platform-install`); null for routes. */
  installId: string | null;
  kind: string;
  /** What the `request` log line names: `GET /path`, the delivery type or the MCP method. */
  label: string;
  /** The caller's trace context (telemetry/tracing.ts reads it when export is on). */
  traceparent?: string | null;
}

export interface Pending {
  readonly job: RunJob | ManifestJob;
  readonly type: 'run' | 'manifest';
  readonly body: Buffer | string | null;
  readonly spec: VersionSpec;
  readonly egress: EgressContext | null;
  readonly meta: PendingMeta;
  readonly deadlineAt: number;
  /** Expected CPU ms when it was placed (what it adds to its worker's queue). */
  costMs: number;
  state: 'queued' | 'dispatched' | 'answered' | 'done';
  /** Times it was placed on a worker (a worker died before entering it: it runs again). */
  attempts: number;
  /** Outbound fetches in progress (made on the first one). */
  egressOps: Map<number, AbortController> | null;
  /** The `.cpuprofile` JSON of a profiled request stopped at its CPU budget (sent before its end). */
  profile: string | null;
  /** Called once with the first answer. */
  answer: (result: RunResult) => void;
  /** Called once with the final report (and the manifest JSON for manifest jobs). */
  finish: (report: RunReport, error: PlatformError | null, body: Buffer | null) => void;
}

export function toPlatformError(e: RunError): PlatformError {
  const tag: ErrorTag = Object.hasOwn(ERROR_TAGS, e.tag) ? e.tag : 'PlatformApiInternalServerError';
  return new PlatformError(tag, e.message, { fields: e.fields ?? {} });
}

export const EMPTY_REPORT = (outcome: RunReport['outcome'], message?: string, now = Date.now()): RunReport => ({
  outcome, cpuMs: 0, wallMs: 0, coldStartMs: null, logs: message === undefined ? [] : [{ level: 'limit', message, at: now }], droppedLogs: 0,
});
