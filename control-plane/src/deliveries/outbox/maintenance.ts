/**
 * @module deliveries/outbox/maintenance
 * What the delivery loops' process does besides delivering, once a minute: sends the mail written
 * since (pause notices to app owners), and once an hour prunes the delivery history
 * (deliveries/outbox/retention.ts). The first prune runs on the first tick after start.
 */
import { createPeriodicTask } from '../../core/clock/periodic-task.ts';
import type { Logger } from '../../core/log/logger.ts';

const MAINTENANCE_MS = 60_000;
const RETENTION_EVERY_MS = 60 * 60_000;

export interface Maintenance {
  start(): void;
  /** Stops the ticks and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * @example
 * const maintenance = createMaintenance({ mail, prune, logger });
 * maintenance.start(); // … await maintenance.stop();
 */
export function createMaintenance(deps: { mail: { flush(): Promise<unknown> }; prune(): Promise<Record<string, number>>; logger: Logger }): Maintenance {
  // The first prune runs on the first tick after start.
  let lastPrune = performance.now() - RETENTION_EVERY_MS;
  const maintain = async () => {
    await deps.mail.flush();
    if (performance.now() - lastPrune >= RETENTION_EVERY_MS) {
      lastPrune = performance.now();
      const removed = await deps.prune();
      deps.logger.debug({ removed }, 'delivery retention ran');
    }
  };
  const loop = createPeriodicTask({
    intervalMs: MAINTENANCE_MS,
    run: maintain,
    onError: (err) => deps.logger.error({ err }, 'delivery maintenance failed'),
  });
  return {
    start() {
      lastPrune = performance.now() - RETENTION_EVERY_MS;
      loop.start();
    },
    stop: loop.stop,
  };
}
