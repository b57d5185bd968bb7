/**
 * @module deliveries/interactive/metrics
 * prom-client metrics of interactive deliveries. Labels are bounded: the interactive type (eight
 * of them) and the outcome (`result`, `deferred`, or the failure reason, a closed list).
 */
import { Histogram, type Registry } from 'prom-client';

export interface EngineMetrics {
  delivery(type: string, outcome: string, durationMs: number): void;
}

export function createEngineMetrics(registry: Registry): EngineMetrics {
  const duration = new Histogram({
    name: 'platform_interactive_delivery_seconds',
    help: 'Interactive deliveries by type and outcome (result, deferred or the failure reason), with their duration',
    labelNames: ['type', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    delivery(type, outcome, durationMs) {
      duration.observe({ type, outcome }, durationMs / 1000);
    },
  };
}
