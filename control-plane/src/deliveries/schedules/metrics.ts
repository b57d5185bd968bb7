/**
 * @module deliveries/schedules/metrics
 * prom-client metrics of schedules, by app (its slug, folded by deliveries/pipeline/app-label.ts):
 * firings, their lag (due time to the firing's event; the delivery's own attempt follows on the
 * outbox), and due times passed over for suspended or paused installs.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { AppLabel } from '../pipeline/app-label.ts';

export interface ScheduleMetrics {
  fired(appSlug: string, lagMs: number, missed: number): void;
  skipped(appSlug: string, count: number): void;
}

export function createScheduleMetrics(registry: Registry, appLabel: AppLabel): ScheduleMetrics {
  const firings = new Counter({
    name: 'platform_schedule_firings_total', help: 'Schedule firings written to the outbox, by app (slug)', labelNames: ['app'] as const, registers: [registry],
  });
  const missed = new Counter({
    name: 'platform_schedule_missed_total', help: 'Due times a catch-up firing stood for (missed while no control plane fired), by app', labelNames: ['app'] as const, registers: [registry],
  });
  const skipped = new Counter({
    name: 'platform_schedule_skipped_total', help: 'Due times passed over because the install was suspended or paused, by app', labelNames: ['app'] as const, registers: [registry],
  });
  const lag = new Histogram({
    name: 'platform_schedule_firing_lag_seconds', help: 'From a schedule\'s due time to its firing, by app', labelNames: ['app'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600], registers: [registry],
  });
  return {
    fired(appSlug, lagMs, count) {
      const app = appLabel(appSlug);
      firings.inc({ app });
      if (count > 0) missed.inc({ app }, count);
      lag.observe({ app }, Math.max(0, lagMs) / 1000);
    },
    skipped(appSlug, count) {
      skipped.inc({ app: appLabel(appSlug) }, count);
    },
  };
}
