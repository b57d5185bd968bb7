/**
 * @module deliveries/outbox/metrics
 * prom-client metrics of lifecycle deliveries. Labels are bounded: the outcome of an attempt.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

export interface OutboxMetrics {
  /** One attempt's outcome (`delivered`, `pending` = will retry, `dead`, `paused`, `skipped` = no request made) and its duration. */
  attempt(outcome: string, durationMs: number | null): void;
}

export function createOutboxMetrics(registry: Registry): OutboxMetrics {
  const attempts = new Counter({
    name: 'platform_lifecycle_attempts_total',
    help: 'Lifecycle delivery attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'platform_lifecycle_attempt_seconds',
    help: 'Duration of lifecycle delivery requests',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  return {
    attempt(outcome, durationMs) {
      attempts.inc({ outcome });
      if (durationMs !== null && outcome !== 'skipped') duration.observe(durationMs / 1000);
    },
  };
}
