/**
 * @module deliveries/outbox/maintenance
 * What the delivery loops' process does besides delivering, once a minute: sends the mail written
 * since (pause notices to app owners), and once an hour prunes the delivery history
 * (deliveries/outbox/retention.ts). The first prune runs on the first tick after start.
 */
import type { Logger } from '../../core/log/logger.ts';

const MAINTENANCE_MS = 60_000;
const RETENTION_EVERY_MS = 60 * 60_000;

export interface Maintenance {
  start(): void;
  stop(): void;
}

/**
 * @example
 * const maintenance = createMaintenance({ mail, prune, logger });
 * maintenance.start(); // … maintenance.stop();
 */
export function createMaintenance(deps: { mail: { flush(): Promise<unknown> }; prune(): Promise<Record<string, number>>; logger: Logger }): Maintenance {
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastPrune = 0;
  const maintain = async () => {
    await deps.mail.flush();
    if (performance.now() - lastPrune >= RETENTION_EVERY_MS) {
      lastPrune = performance.now();
      const removed = await deps.prune();
      deps.logger.debug({ removed }, 'delivery retention ran');
    }
  };
  return {
    start() {
      lastPrune = performance.now() - RETENTION_EVERY_MS;
      timer = setInterval(() => void maintain().catch((err: unknown) => deps.logger.error({ err }, 'delivery maintenance failed')), MAINTENANCE_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
