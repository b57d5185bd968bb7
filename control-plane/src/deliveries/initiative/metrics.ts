/**
 * @module deliveries/initiative/metrics
 * Operator metrics of queues, per app (its slug, folded like every delivery metric), read from the
 * database when `/metrics` is scraped: messages waiting, the age of the oldest, dead letters. The
 * registry collects the three gauges at once; they share one grouped query per scrape (the read in
 * flight). A failed read keeps the last values and is logged.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { AppLabel } from '../pipeline/app-label.ts';
import { queueTotals } from './store.ts';

interface Totals {
  depth: Map<string, number>;
  oldestSeconds: Map<string, number>;
  dead: Map<string, number>;
}

export function registerQueueMetrics(registry: Registry, deps: { db: Db; clock: Clock; logger: Logger; appLabel: AppLabel }): void {
  let inFlight: Promise<Totals | null> | null = null;
  const read = (): Promise<Totals | null> => {
    inFlight ??= (async () => {
      try {
        const rows = await queueTotals(deps.db);
        const now = deps.clock.now();
        const totals: Totals = { depth: new Map(), oldestSeconds: new Map(), dead: new Map() };
        const add = (map: Map<string, number>, app: string, n: number) => map.set(app, (map.get(app) ?? 0) + n);
        for (const row of rows) {
          const app = deps.appLabel(row.slug);
          add(totals.depth, app, row.depth);
          add(totals.dead, app, row.dead);
          if (row.oldest_at !== null) totals.oldestSeconds.set(app, Math.max(totals.oldestSeconds.get(app) ?? 0, Math.max(0, (now - row.oldest_at.getTime()) / 1000)));
        }
        return totals;
      } catch (err) {
        deps.logger.warn({ err }, 'queue metrics could not be read');
        return null;
      } finally {
        // The next scrape reads again.
        setImmediate(() => { inFlight = null; });
      }
    })();
    return inFlight;
  };
  const gauge = (name: string, help: string, pick: (t: Totals) => Map<string, number>) => new Gauge({
    name, help, labelNames: ['app'] as const, registers: [registry],
    async collect() {
      const totals = await read();
      if (totals === null) return;
      this.reset();
      for (const [app, value] of pick(totals)) this.set({ app }, value);
    },
  });
  gauge('platform_queue_depth', 'Queue messages not yet acknowledged (pending or paused), by app (slug)', (t) => t.depth);
  gauge('platform_queue_oldest_age_seconds', 'Age of the oldest queue message not yet acknowledged, by app', (t) => t.oldestSeconds);
  gauge('platform_queue_dead_letters', 'Queue messages that used their attempts (dead letters still kept), by app', (t) => t.dead);
}
