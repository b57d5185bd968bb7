/**
 * @module apps/storage/sweeper
 * The periodic work of app storage, on the injected clock: purge the spaces whose retention after
 * an uninstall ended, remove expired entries (in batches), and drop units of work whose action's
 * control plane died before answering. Every control plane runs it; each statement is safe to run
 * on several replicas at once (deletes of the same rows wait for each other, and expired entries are
 * taken only under their key's lock).
 */
import type { Clock } from '../../core/clock/clock.ts';
import { createPeriodicTask } from '../../core/clock/periodic-task.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { UnitOfWork } from '../../core/unit-of-work/unit-of-work.ts';
import { purgeRetired, removeExpired } from './retention.ts';

const BATCH = 500;

export interface StorageSweep {
  purgedSpaces: number;
  expiredEntries: number;
  droppedUnits: number;
}

export interface StorageSweeper {
  sweep(): Promise<StorageSweep>;
  /** Runs `sweep` every `intervalMs` (0: never) until `stop`. */
  start(): void;
  stop(): Promise<void>;
}

export function createStorageSweeper(deps: { db: Db; clock: Clock; unitOfWork: UnitOfWork; intervalMs: number; logger?: Logger }): StorageSweeper {
  const sweep = async (): Promise<StorageSweep> => {
    const now = new Date(deps.clock.now());
    const purgedSpaces = await purgeRetired(deps.db, now);
    let expiredEntries = 0;
    for (;;) {
      const n = await deps.db.transaction((tx) => removeExpired(tx, now, BATCH));
      expiredEntries += n;
      if (n < BATCH) break;
    }
    const droppedUnits = await deps.unitOfWork.sweep(deps.db, now);
    return { purgedSpaces, expiredEntries, droppedUnits };
  };

  const loop = createPeriodicTask({
    intervalMs: deps.intervalMs,
    run: sweep,
    onError: (err) => deps.logger?.warn({ err }, 'The storage sweep failed; the next one retries'),
  });
  return { sweep, start: loop.start, stop: loop.stop };
}
