/**
 * @module apps/rollouts/evaluator
 * The platform's watch over running rollouts: every `intervalMs` (and whenever a test calls
 * `evaluate`), each running rollout's signals are read and judged (./verdict.ts); a new version
 * worse beyond the bound is aborted, every install it moved goes back, and the author is told.
 * Every control plane runs it; an abort is decided under the app's lock by a conditional update,
 * so when several judge the same rollout at once one aborts it and tells the author, once.
 */
import type { Clock } from '../../core/clock/clock.ts';
import { createPeriodicTask } from '../../core/clock/periodic-task.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { RolloutMetrics } from './metrics.ts';
import { abort } from './moves.ts';
import type { AbortNotifier } from './notify.ts';
import { rolloutView } from './service.ts';
import { listRunningRollouts } from './store.ts';

export interface RolloutEvaluator {
  /** Judges every running rollout once; answers the ids of those it aborted. */
  evaluate(): Promise<string[]>;
  /** Runs `evaluate` every `intervalMs` (0: never) until `stop`. */
  start(): void;
  stop(): Promise<void>;
}

const pct = (n: number) => `${Math.round(n * 1000) / 10} %`;

export function createRolloutEvaluator(deps: { db: Db; clock: Clock; logger: Logger; notifier: AbortNotifier; metrics: RolloutMetrics; intervalMs: number }): RolloutEvaluator {
  async function evaluate(): Promise<string[]> {
    const aborted: string[] = [];
    const views = [];
    for (const rollout of await listRunningRollouts(deps.db)) {
      const view = await rolloutView(deps.db, rollout);
      if (!view.verdict.worse) {
        views.push(view);
        continue;
      }
      const { new: fresh, old } = view.signals;
      const reason = `version ${rollout.version} failed ${fresh.failures} of ${fresh.outcomes} requests and deliveries `
        + `(at least ${pct(view.verdict.newLower ?? 0)} with 99 % confidence) against ${old.failures} of ${old.outcomes} on the other installs `
        + `(at most ${pct(view.verdict.baseline ?? 0)})`;
      const at = new Date(deps.clock.now());
      const ended = await abort(deps.db, rollout.app_id, {
        reason, by: 'platform', rolloutId: rollout.id, verdict: { ...view.verdict, newSide: fresh, oldSide: old },
        onAborted: (tx, row) => deps.notifier.write(tx, row, reason),
      }, at);
      if (ended === undefined) continue;
      aborted.push(rollout.id);
      deps.metrics.aborted(rollout.app_id, 'platform');
      await deps.notifier.told(ended, reason, at);
    }
    deps.metrics.running(views);
    return aborted;
  }

  const loop = createPeriodicTask({
    intervalMs: deps.intervalMs,
    run: evaluate,
    onError: (err) => deps.logger.warn({ err }, 'The rollout evaluation failed; the next one retries'),
  });
  return { evaluate, start: loop.start, stop: loop.stop };
}
