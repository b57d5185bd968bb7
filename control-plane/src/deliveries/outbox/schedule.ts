/**
 * @module deliveries/outbox/schedule
 * The retry schedule of lifecycle deliveries (spec Limits, Deliveries): jittered exponential
 * backoff from 1 minute up to 6 hours, at most 20 attempts.
 *
 * After the n-th failed attempt the nominal delay is 1 min × 2^(n-1), capped at 6 h; the actual
 * delay is drawn uniformly from the top fifth of it, [0.8 × nominal, nominal], and never below
 * 1 minute. So the first retry comes after exactly 1 minute, the schedule never leaves the spec's
 * bounds, and deliveries that failed together (an app down for an hour) spread out instead of
 * returning at the same instant. Twenty attempts span at most about 68.5 hours.
 */
import { LIMITS } from '@platform/sdk';

const { backoffMinMs, backoffMaxMs, lifecycleAttempts, lifecycleAckMs, continuousFailurePauseMs } = LIMITS.deliveries;

export const SCHEDULE = {
  minDelayMs: backoffMinMs,
  maxDelayMs: backoffMaxMs,
  maxAttempts: lifecycleAttempts,
  /** Share of the nominal delay the jitter may take off. */
  jitter: 0.2,
  ackTimeoutMs: lifecycleAckMs,
  /** Continuous failure this long pauses an install's deliveries and mails the app's owner. */
  pauseAfterMs: continuousFailurePauseMs,
} as const;

/** The nominal (un-jittered) delay after `failedAttempts` failures. */
export function nominalDelayMs(failedAttempts: number): number {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) throw new RangeError('failedAttempts counts from 1');
  return Math.min(SCHEDULE.maxDelayMs, SCHEDULE.minDelayMs * 2 ** Math.min(failedAttempts - 1, 30));
}

/**
 * The delay before the next attempt after `failedAttempts` failures; `random` returns [0, 1).
 * @example retryDelayMs(1) // 60000
 */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const nominal = nominalDelayMs(failedAttempts);
  const low = Math.max(SCHEDULE.minDelayMs, nominal * (1 - SCHEDULE.jitter));
  return Math.round(low + (nominal - low) * random());
}

export type NextStep = { kind: 'retry'; at: Date } | { kind: 'dead' };

/**
 * What follows a failed attempt: another one later, or none (the delivery is dead). `maxAttempts`
 * is the delivery's own bound (a queue's, 1 to 20), never above the schedule's.
 */
export function afterFailure(scheduleAttempts: number, now: number, random: () => number = Math.random, maxAttempts: number = SCHEDULE.maxAttempts): NextStep {
  if (scheduleAttempts >= Math.min(maxAttempts, SCHEDULE.maxAttempts)) return { kind: 'dead' };
  return { kind: 'retry', at: new Date(now + retryDelayMs(scheduleAttempts, random)) };
}
