/**
 * @module deliveries/outbox/metrics
 * prom-client metrics of lifecycle deliveries. Labels are bounded: the outcome of an attempt and
 * the app (its slug, folded by deliveries/pipeline/app-label.ts).
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { AppLabel } from '../pipeline/app-label.ts';

export interface OutboxMetrics {
  /**
   * One attempt's outcome (`delivered`, `pending` = will retry, `dead`, `paused`, `skipped` = no
   * request made), its duration, and the slug of its app (null: not known any more).
   */
  attempt(outcome: string, durationMs: number | null, appSlug: string | null): void;
}

export function createOutboxMetrics(registry: Registry, appLabel: AppLabel): OutboxMetrics {
  const attempts = new Counter({
    name: 'platform_lifecycle_attempts_total',
    help: 'Lifecycle delivery attempts by app (slug; _unknown, _other past the cap) and outcome',
    labelNames: ['app', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'platform_lifecycle_attempt_seconds',
    help: 'Duration of lifecycle delivery requests by app (slug)',
    labelNames: ['app'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  return {
    attempt(outcome, durationMs, appSlug) {
      const app = appLabel(appSlug);
      attempts.inc({ app, outcome });
      if (durationMs !== null && outcome !== 'skipped') duration.observe({ app }, durationMs / 1000);
    },
  };
}
