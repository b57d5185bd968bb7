/**
 * @module supervisor/reports
 * What a finished request leaves behind: its CPU and outcome in the metrics (label children cached
 * per app and kind: looking them up by labels on every request costs more than the request's own
 * bookkeeping), cold starts, and its log lines in the app's log.
 */
import type { AppLog } from '../logs/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { RunReport } from '../protocol/messages.ts';
import type { PendingMeta } from './pending.ts';

type Child<T extends { labels: (...v: string[]) => unknown }> = ReturnType<T['labels']>;

export function createReports(deps: { metrics: Metrics; appLog: AppLog; now: () => number }) {
  // app → kind (→ outcome) → label child: nested maps, so no key string is built per request.
  const cpu = new Map<string, Map<string, Child<Metrics['requestCpu']>>>();
  const outcomes = new Map<string, Map<string, Child<Metrics['requests']>>>();
  const MAX_APPS = 10_000;
  const cached = <C>(map: Map<string, Map<string, C>>, app: string, key: string, make: () => C): C => {
    let byKey = map.get(app);
    if (byKey === undefined) {
      if (map.size >= MAX_APPS) map.clear();
      byKey = new Map();
      map.set(app, byKey);
    }
    let c = byKey.get(key);
    if (c === undefined) {
      c = make();
      byKey.set(key, c);
    }
    return c;
  };

  return {
    record(meta: PendingMeta, requestId: string, report: RunReport): void {
      const { metrics } = deps;
      cached(cpu, meta.appId, meta.kind, () => metrics.requestCpu.labels(meta.appId, meta.kind)).observe(report.cpuMs / 1000);
      cached(outcomes, meta.appId, `${meta.kind} ${report.outcome}`, () => metrics.requests.labels(meta.appId, meta.kind, report.outcome)).inc();
      if (report.coldStartMs !== null) {
        metrics.coldStarts.inc({ app: meta.appId });
        metrics.coldStartSeconds.observe(report.coldStartMs / 1000);
      }
      if (report.logs.length === 0 && report.droppedLogs === 0) return;
      const line = (at: number, level: string, message: string) => ({ at: new Date(at).toISOString(), appId: meta.appId, version: meta.version, requestId, deliveryId: meta.deliveryId, kind: meta.kind, level, message });
      const lines = report.logs.map((l) => line(l.at, l.level, l.message));
      if (report.droppedLogs > 0) lines.push(line(deps.now(), 'warn', `${report.droppedLogs} more log lines of this request were dropped (cap per request)`));
      deps.appLog.append(lines);
    },
    /** A line of the platform's own in the app's log (quarantine, blocked egress). */
    note(meta: PendingMeta, requestId: string, level: string, message: string): void {
      deps.appLog.append([{ at: new Date(deps.now()).toISOString(), appId: meta.appId, version: meta.version, requestId, deliveryId: meta.deliveryId, kind: meta.kind, level, message }]);
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
