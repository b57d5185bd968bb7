/**
 * @module apps/log-drains/limits
 * The numbers of log drains (ours: the issue names none; docs/decisions/log-drains.md says why each).
 */

export const DRAIN_LIMITS = {
  /** Drains an app may have: a few destinations (a log service, an archive, a staging copy). */
  perApp: 3,
  /** Lines in one batch: the node ships at most 500 a batch too. */
  batchLines: 500,
  /** Bytes of one batch's JSON body; a batch is cut before the line that would pass it. */
  batchBytes: 1024 * 1024,
  /** After the first new line is stored, the batch waits this long for more before it is sent. */
  flushMs: 1_000,
  /** Every replica looks for due drains this often (lines stored by another replica, retries due). */
  pollMs: 5_000,
  /** An answer takes at most this long; a batch not acknowledged in time is retried. */
  timeoutMs: 10_000,
  /** The receiver's answer is read no further than this (only its status matters). */
  responseBytes: 64 * 1024,
  /** Retries wait 1 s, 2 s, 4 s … up to this. */
  maxBackoffMs: 5 * 60_000,
  /** A drain that has failed without a success for this long is disabled and its app's owner mailed. */
  disableAfterMs: 24 * 60 * 60_000,
  /** A claimed drain is another replica's again after this (a replica that died mid-send). */
  leaseMs: 60_000,
  /** Drains sent at once by one replica. */
  concurrency: 4,
} as const;

export type DrainSettings = { [K in keyof typeof DRAIN_LIMITS]: number };

/** The wait before attempt `failures + 1`, after `failures` failures in a row (from 1). */
export function backoffMs(failures: number, max: number = DRAIN_LIMITS.maxBackoffMs): number {
  return Math.min(max, 1_000 * 2 ** Math.min(30, Math.max(0, failures - 1)));
}
