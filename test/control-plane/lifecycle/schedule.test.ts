import { describe, expect, it } from 'vitest';
import { afterFailure, nominalDelayMs, retryDelayMs, SCHEDULE } from '../../../control-plane/src/deliveries/outbox/schedule.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('retry schedule (spec: jittered exponential backoff from 1 minute to 6 hours, at most 20 attempts)', () => {
  it('doubles from 1 minute and stops growing at 6 hours', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(nominalDelayMs)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256].map((m) => m * MIN));
    expect(nominalDelayMs(10)).toBe(6 * HOUR);
    expect(nominalDelayMs(19)).toBe(6 * HOUR);
    expect(() => nominalDelayMs(0)).toThrow(RangeError);
  });

  it('jitters within [0.8 × nominal, nominal] and never leaves 1 minute … 6 hours', () => {
    for (let n = 1; n <= 19; n++) {
      const nominal = nominalDelayMs(n);
      const low = retryDelayMs(n, () => 0);
      const high = retryDelayMs(n, () => 0.999_999);
      expect(low).toBe(Math.max(MIN, Math.round(nominal * 0.8)));
      expect(high).toBeLessThanOrEqual(nominal);
      expect(high).toBeGreaterThan(nominal - 1_000);
      expect(low).toBeGreaterThanOrEqual(SCHEDULE.minDelayMs);
      expect(high).toBeLessThanOrEqual(SCHEDULE.maxDelayMs);
    }
    expect(retryDelayMs(1, () => 0.5)).toBe(MIN);
    expect(retryDelayMs(2, () => 0.5)).toBe(1.8 * MIN);
    expect(retryDelayMs(12, () => 0)).toBe(4.8 * HOUR);
  });

  it('retries after each of the first 19 failures and declares the 20th dead', () => {
    const now = Date.UTC(2026, 0, 1);
    for (let n = 1; n < 20; n++) {
      const step = afterFailure(n, now, () => 0.5);
      expect(step.kind).toBe('retry');
      if (step.kind === 'retry') expect(step.at.getTime() - now).toBe(retryDelayMs(n, () => 0.5));
    }
    expect(afterFailure(20, now)).toEqual({ kind: 'dead' });
    expect(SCHEDULE.maxAttempts).toBe(20);
  });

  it('spans less than three days over 20 attempts, so the 3-day pause needs new failing events', () => {
    let total = 0;
    for (let n = 1; n < 20; n++) total += nominalDelayMs(n);
    expect(total).toBe(511 * MIN + 10 * 6 * HOUR);
    expect(total).toBeLessThan(SCHEDULE.pauseAfterMs);
    expect(SCHEDULE.pauseAfterMs).toBe(3 * 24 * HOUR);
  });
});
