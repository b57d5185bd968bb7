/**
 * @module apps/log-drains/metrics
 * Operator metrics of log drains: batches by outcome, lines delivered, drains disabled. No app
 * label: drains are few per app, and what an operator watches is whether shipping works at all;
 * which drain fails is on its record (`GET …/log-drains`).
 */
import { Counter, type Registry } from 'prom-client';

export interface DrainMetrics {
  delivered(lines: number): void;
  failed(): void;
  disabled(): void;
}

export function createDrainMetrics(registry: Registry): DrainMetrics {
  const batches = new Counter({ name: 'platform_log_drain_batches_total', help: 'Log drain batches sent, by outcome (delivered, failed)', labelNames: ['outcome'] as const, registers: [registry] });
  const lines = new Counter({ name: 'platform_log_drain_lines_total', help: 'Log lines delivered to drains (a line counts once per drain)', registers: [registry] });
  const disabled = new Counter({ name: 'platform_log_drain_disabled_total', help: 'Log drains disabled after failing without a success for 24 hours', registers: [registry] });
  return {
    delivered(n) {
      batches.inc({ outcome: 'delivered' });
      lines.inc(n);
    },
    failed: () => batches.inc({ outcome: 'failed' }),
    disabled: () => disabled.inc(),
  };
}
