/**
 * @module deliveries/schedules/sync
 * Keeps `install_schedules` in step with the versions installs run, whatever changed them
 * (install, approval, a development sync, rollback, uninstall): each pass reads the installs whose
 * rows are out of date and rewrites theirs. A new schedule is first due at its first due time
 * after now (an install does not receive firings from before it had the schedule). Several
 * control planes may sync one install at once: the writes are idempotent.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { CronMemo } from './due.ts';
import { dropUninstalled, staleInstalls, syncInstallRows } from './store.ts';

/** Answers how many installs it brought up to date (uninstalled ones included). */
export async function syncSchedules(db: Db, clock: Clock, memo: CronMemo, limit: number): Promise<number> {
  const dropped = await dropUninstalled(db);
  const now = new Date(clock.now());
  const stale = await staleInstalls(db, limit);
  for (const install of stale) {
    const rows = install.schedules.map((s) => {
      const timeZone = s.timeZone ?? 'UTC';
      const first = memo.next({ cron: s.cron, timeZone }, now);
      return { name: s.name, cron: s.cron, time_zone: timeZone, next_due_at: first === null ? null : first.toISOString() };
    });
    await db.transaction((tx) => syncInstallRows(tx, { installId: install.install_id, appId: install.app_id, version: install.version, rows, now }));
  }
  return dropped + stale.length;
}
