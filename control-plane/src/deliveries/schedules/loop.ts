/**
 * @module deliveries/schedules/loop
 * The schedule loop: each pass brings installs' schedule rows up to date (sync.ts), then claims
 * due rows in batches, decides each (due.ts) and records the firings' outbox events with the rows'
 * new due times in the claim's transaction, then wakes the delivery loops. From there a firing is
 * a lifecycle delivery like any other (retries, backoff, `410` pause, one `webhook-id`).
 *
 * Every control plane runs one; they need no leader. Claims skip rows another holds, and the
 * unique firing key makes a second event for an install, schedule and due time impossible even if
 * two passes decided the same row (a row read before another's commit). Time is the injected
 * clock's; only the wait between passes is a real timer.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { newEventId } from '../../workspace/events/ids.ts';
import { createCronMemo, decideRow } from './due.ts';
import type { ScheduleMetrics } from './metrics.ts';
import { claimDueSchedules, recordRowOutcomes } from './store.ts';
import { syncSchedules } from './sync.ts';

export interface ScheduleLoopSettings {
  batchSize: number;
  pollMs: number;
}

export interface ScheduleLoopDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Nudges this process's delivery loops after firings commit (other processes hear the trigger's NOTIFY). */
  wake(): void;
  metrics?: ScheduleMetrics;
  settings: ScheduleLoopSettings;
}

export interface PassResult {
  synced: number;
  fired: number;
  skipped: number;
}

export interface ScheduleLoop {
  /** One pass: sync, then every due row (in batches); answers what it did. */
  runOnce(): Promise<PassResult>;
  start(): void;
  stop(): Promise<void>;
}

export function createScheduleLoop(deps: ScheduleLoopDeps): ScheduleLoop {
  const { db, clock, settings } = deps;
  let running: Promise<void> | null = null;
  let stopping = false;
  let timer: { handle: ReturnType<typeof setTimeout>; resolve: () => void } | null = null;

  /** One claimed batch, decided and recorded in one transaction; answers [rows claimed, fired, skipped]. */
  async function fireBatch(memo: ReturnType<typeof createCronMemo>): Promise<[number, number, number]> {
    const now = new Date(clock.now());
    const { claimed, fired, outcomes, rows } = await db.transaction(async (tx) => {
      const due = await claimDueSchedules(tx, { now, limit: settings.batchSize });
      const decided = due.map((row) => decideRow(row, now, memo, newEventId));
      const written = await recordRowOutcomes(tx, decided, now);
      return { claimed: due.length, fired: written, outcomes: decided, rows: due };
    });
    let skipped = 0;
    outcomes.forEach((outcome, i) => {
      const row = rows[i]!;
      if (outcome.event !== null && fired.has(outcome.event.id)) {
        deps.metrics?.fired(row.app_slug, now.getTime() - Date.parse(outcome.event.due_at), (outcome.event.payload.schedule as { missed: number }).missed);
      } else if (outcome.event === null) {
        skipped += outcome.skipped;
        deps.metrics?.skipped(row.app_slug, outcome.skipped);
      }
    });
    if (fired.size > 0) deps.wake();
    return [claimed, fired.size, skipped];
  }

  async function runOnce(): Promise<PassResult> {
    const memo = createCronMemo();
    const result: PassResult = { synced: await syncSchedules(db, clock, memo, settings.batchSize), fired: 0, skipped: 0 };
    for (;;) {
      const [claimed, fired, skipped] = await fireBatch(memo);
      result.fired += fired;
      result.skipped += skipped;
      if (claimed < settings.batchSize || stopping) return result;
    }
  }

  const pause = () => new Promise<void>((resolve) => {
    timer = { handle: setTimeout(resolve, settings.pollMs), resolve };
  });

  async function loop(): Promise<void> {
    while (!stopping) {
      try {
        await runOnce();
      } catch (err) {
        deps.logger.error({ err }, 'schedule pass failed');
      }
      if (!stopping) await pause();
      timer = null;
    }
  }

  return {
    runOnce,
    start() {
      if (running) return;
      stopping = false;
      running = loop();
    },
    async stop() {
      stopping = true;
      if (timer) {
        clearTimeout(timer.handle);
        timer.resolve();
      }
      await running;
      running = null;
    },
  };
}
