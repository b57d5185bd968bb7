/**
 * @module deliveries/interactive/metrics
 * prom-client metrics of interactive deliveries. Labels are bounded: the interactive type (eight
 * of them), the outcome (`result`, `deferred`, or the failure reason, a closed list) and the app
 * (its slug, folded by deliveries/pipeline/app-label.ts).
 */
import { Histogram, type Registry } from 'prom-client';
import type { AppLabel } from '../pipeline/app-label.ts';

export interface EngineMetrics {
  delivery(type: string, outcome: string, durationMs: number, appSlug: string | null): void;
}

export function createEngineMetrics(registry: Registry, appLabel: AppLabel): EngineMetrics {
  const duration = new Histogram({
    name: 'platform_interactive_delivery_seconds',
    help: 'Interactive deliveries by app (slug; _unknown, _other past the cap), type and outcome (result, deferred or the failure reason), with their duration',
    labelNames: ['app', 'type', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    delivery(type, outcome, durationMs, appSlug) {
      duration.observe({ app: appLabel(appSlug), type, outcome }, durationMs / 1000);
    },
  };
}
