/**
 * @module apps/rollouts/metrics
 * Operator metrics of rollouts, by app and version: each running rollout's share, the outcomes and
 * failures on either side, and the app's installs by the version they run; aborts counted by who
 * aborted. The gauges are set afresh at every evaluation (a finished rollout drops out), so their
 * labels are bounded by the rollouts running at once.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Rollout } from './schemas.ts';

export interface RolloutMetrics {
  /** Replaces the gauges with the running rollouts' figures. */
  running(rollouts: readonly Rollout[]): void;
  aborted(appId: string, by: 'author' | 'platform'): void;
}

export function createRolloutMetrics(registry: Registry): RolloutMetrics {
  const percent = new Gauge({ name: 'platform_rollout_percent', help: 'The share of a running rollout, by app and the version rolled out', labelNames: ['app', 'version'] as const, registers: [registry] });
  const outcomes = new Gauge({
    name: 'platform_rollout_outcomes', help: 'Outcomes (request lines and delivery attempts) since a running rollout started, by app, version and side (new: installs it moved)',
    labelNames: ['app', 'version', 'side'] as const, registers: [registry],
  });
  const failures = new Gauge({ name: 'platform_rollout_failures', help: 'Failed outcomes since a running rollout started, by app, version and side', labelNames: ['app', 'version', 'side'] as const, registers: [registry] });
  const installs = new Gauge({ name: 'platform_rollout_installs', help: 'Live workspace installs of an app with a running rollout, by the version they run', labelNames: ['app', 'version'] as const, registers: [registry] });
  const aborts = new Counter({ name: 'platform_rollout_aborts_total', help: 'Rollouts aborted, by app and by whom (author, platform)', labelNames: ['app', 'by'] as const, registers: [registry] });
  return {
    running(rollouts) {
      for (const g of [percent, outcomes, failures, installs]) g.reset();
      for (const r of rollouts) {
        const version = String(r.version);
        percent.set({ app: r.appId, version }, r.percent);
        for (const side of ['new', 'old'] as const) {
          outcomes.set({ app: r.appId, version, side }, r.signals[side].outcomes);
          failures.set({ app: r.appId, version, side }, r.signals[side].failures);
        }
        for (const v of r.installs.byVersion) installs.set({ app: r.appId, version: String(v.version) }, v.installs);
      }
    },
    aborted: (appId, by) => aborts.inc({ app: appId, by }),
  };
}
