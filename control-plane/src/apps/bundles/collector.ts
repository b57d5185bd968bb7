/**
 * @module apps/bundles/collector
 * Collects bundles, and the source maps uploaded with them, that no version refers to any more (an
 * upload whose manifest was refused, a version of a deleted app). Every control plane runs it periodically; a transaction-scoped advisory lock
 * lets one replica at a time do the work and the others skip their turn. A bundle is collected only
 * once its last upload is older than the grace period: an upload stores the bundle before the
 * runtime reads its manifest and the version row commits, and that row must find it there.
 *
 * Each batch holds its rows locked while it deletes their objects (BUNDLE_STORE=s3), so an upload
 * of the same bytes meanwhile waits and then writes the object again after the delete.
 */
import type { Clock } from '../../core/clock/clock.ts';
import { createPeriodicTask } from '../../core/clock/periodic-task.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { ObjectStore } from '../../core/object-store/object-store.ts';
import { objectKey } from './service.ts';
import { BLOB_TABLES, deleteBundles, lockCollectable, tryLockCollector, type BlobTable } from './store.ts';

const BATCH = 100;

export interface BundleCollector {
  /** Collects every unreferenced bundle past its grace; the count, 0 when another replica is at it. */
  collect(): Promise<number>;
  /** Runs `collect` every `intervalMs` (0: never) until `stop`. */
  start(): void;
  stop(): Promise<void>;
}

export interface BundleCollectorDeps {
  db: Db;
  clock: Clock;
  objects: ObjectStore | null;
  prefix?: string;
  graceMs: number;
  intervalMs: number;
  logger?: Logger;
}

/**
 * @example
 * const collector = createBundleCollector({ db, clock, objects: null, graceMs: 86_400_000, intervalMs: 3_600_000, logger });
 * await collector.collect();
 */
export function createBundleCollector(deps: BundleCollectorDeps): BundleCollector {
  const prefix = deps.prefix ?? '';
  /** One batch in one transaction; null when another replica holds the lock. */
  const batch = (cutoff: Date, table: BlobTable): Promise<number | null> => deps.db.transaction(async (tx) => {
    if (!(await tryLockCollector(tx))) return null;
    const rows = await lockCollectable(tx, cutoff, BATCH, deps.objects !== null, table);
    for (const row of rows) if (!row.in_database) await deps.objects!.delete(objectKey(prefix, row.sha256, table));
    await deleteBundles(tx, rows.map((r) => r.sha256), table);
    return rows.length;
  });

  const collect = async (): Promise<number> => {
    const cutoff = new Date(deps.clock.now() - deps.graceMs);
    let total = 0;
    for (const table of Object.keys(BLOB_TABLES) as BlobTable[]) {
      for (;;) {
        const n = await batch(cutoff, table);
        if (n === null) return total;
        total += n;
        if (n < BATCH) break;
      }
    }
    if (total > 0) deps.logger?.info({ collected: total }, 'unreferenced bundles collected');
    return total;
  };

  const loop = createPeriodicTask({
    intervalMs: deps.intervalMs,
    run: collect,
    onError: (err) => deps.logger?.error({ err }, 'bundle collection failed'),
  });
  return { collect, start: loop.start, stop: loop.stop };
}
