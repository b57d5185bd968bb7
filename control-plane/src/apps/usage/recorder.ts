/**
 * @module apps/usage/recorder
 * The control plane's own usage counts (delivery attempts, storage operations, queue messages),
 * added in memory as they happen and written in one statement every `flushMs` (apps/usage/store.ts):
 * counting costs the click path no round trip. Written on stop too. A write that fails is merged
 * back and tried with the next one; at most `maxRows` rows (app, install, minute) wait, past which
 * the oldest minutes are dropped and logged (the database down that long loses its counts).
 * A process that dies without stopping loses at most its last `flushMs` of counts: the price of no
 * round trip, recorded in docs/decisions/usage.md.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { bucketOf, COUNTER_NAMES, type Counts, type UsageDelta } from './counters.ts';
import { addUsage } from './store.ts';

export const RECORDER = { flushMs: 1_000, maxRows: 50_000 } as const;

export interface UsageRecorder {
  /** Adds counts to the install's current minute (`appId` null: looked up from the install when written; `installId` null: no install). */
  add(appId: string | null, installId: string | null, counts: Counts): void;
  /** Writes what is held now. */
  flush(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

function merge(into: UsageDelta, counts: Counts): void {
  for (const name of COUNTER_NAMES) {
    const n = counts[name];
    if (n !== undefined) into.counts[name] = (into.counts[name] ?? 0) + n;
  }
}

export function createUsageRecorder(deps: { db: Db; clock: Clock; logger: Logger; flushMs?: number; maxRows?: number }): UsageRecorder {
  let held = new Map<string, UsageDelta>();
  const maxRows = deps.maxRows ?? RECORDER.maxRows;
  const state = { timer: null as ReturnType<typeof setInterval> | null, writing: Promise.resolve() };

  const hold = (id: string, delta: UsageDelta): void => {
    const row = held.get(id);
    if (row === undefined) held.set(id, { ...delta, counts: { ...delta.counts } });
    else merge(row, delta.counts);
  };

  const writeOnce = async (): Promise<void> => {
    if (held.size === 0) return;
    const batch = held;
    held = new Map();
    try {
      await addUsage(deps.db, [...batch.values()], null);
    } catch (err) {
      for (const [id, delta] of batch) hold(id, delta);
      let lost = 0;
      // Map order is insertion order: the oldest minutes go first.
      for (const id of held.keys()) {
        if (held.size <= maxRows) break;
        held.delete(id);
        lost++;
      }
      deps.logger.warn({ err, waiting: held.size, dropped: lost }, 'usage counts not written; retrying with the next write');
    }
  };

  const flush = (): Promise<void> => {
    state.writing = state.writing.then(writeOnce);
    return state.writing;
  };

  return {
    add(appId, installId, counts) {
      const at = deps.clock.now();
      const install = installId ?? '';
      hold(`${appId ?? ''}\n${install}\n${bucketOf(at, 'minute')}`, { appId, installId: install, at, counts });
    },
    flush,
    start() {
      if (state.timer !== null) return;
      state.timer = setInterval(() => void flush(), deps.flushMs ?? RECORDER.flushMs);
      state.timer.unref();
    },
    async stop() {
      if (state.timer !== null) clearInterval(state.timer);
      state.timer = null;
      await flush();
    },
  };
}
