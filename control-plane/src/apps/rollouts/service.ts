/**
 * @module apps/rollouts/service
 * Rollouts as tooling and the console use them (`/v0/apps/{app_id}/rollout…`, ours): the status,
 * advance, promote and abort by the author. Starting one is part of a publish (apps/publish), and
 * the platform's own abort is the evaluator's (./evaluator.ts).
 */
import { PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { iso } from '../../core/http/common.ts';
import { deployableApp, manageableApp, type ToolingCaller } from '../guards/access.ts';
import type { RolloutMetrics } from './metrics.ts';
import * as moves from './moves.ts';
import type { Rollout } from './schemas.ts';
import { readSignals } from './signals.ts';
import { installsByVersion, latestRollout, movedInstalls, type RolloutRow } from './store.ts';
import { VERDICT, judge } from './verdict.ts';

/** The rollout as the status shows it, with its figures read now. */
export async function rolloutView(db: Db, rollout: RolloutRow): Promise<Rollout> {
  const [signals, moved, byVersion] = await Promise.all([readSignals(db, rollout), movedInstalls(db, rollout.id), installsByVersion(db, rollout.app_id)]);
  const stored = rollout.verdict as { newLower?: number | null; baseline?: number | null; worse?: boolean } | null;
  const verdict = stored ?? judge(signals.newSide, signals.oldSide);
  return {
    id: rollout.id, appId: rollout.app_id, version: rollout.version, percent: rollout.percent, status: rollout.status,
    reason: rollout.reason, abortedBy: rollout.aborted_by, startedAt: iso(rollout.started_at), endedAt: rollout.ended_at === null ? null : iso(rollout.ended_at),
    installs: { moved: moved.filter((m) => m.reverted_at === null).length, byVersion },
    signals: { new: signals.newSide, old: signals.oldSide, newErrorGroups: signals.newErrorGroups },
    verdict: { worse: verdict.worse ?? false, newLower: verdict.newLower ?? null, baseline: verdict.baseline ?? null, minOutcomes: VERDICT.minOutcomes },
  };
}

export type RolloutsService = ReturnType<typeof createRolloutsService>;

export function createRolloutsService(deps: { db: Db; clock: Clock; metrics: Pick<RolloutMetrics, 'aborted'> }) {
  const { db } = deps;
  const now = () => new Date(deps.clock.now());

  const current = async (appId: string): Promise<Rollout> => {
    const rollout = await latestRollout(db, appId);
    if (rollout === undefined) throw new PlatformError('PlatformApiNotFoundError', 'The app has no rollout: deploy with --rollout <percent> to start one', { path: ['rollout'] });
    return rolloutView(db, rollout);
  };

  return {
    /** The app's running rollout, else its newest finished one. */
    async status(caller: ToolingCaller, appId: string): Promise<Rollout> {
      const app = await manageableApp(db, caller, appId);
      return current(app.id);
    },

    async advance(caller: ToolingCaller, appId: string, percent: number): Promise<Rollout> {
      const app = await deployableApp(db, caller, appId, 'production');
      await moves.advance(db, app.id, percent, now());
      return current(app.id);
    },

    async promote(caller: ToolingCaller, appId: string): Promise<Rollout> {
      const app = await deployableApp(db, caller, appId, 'production');
      await moves.promote(db, app.id, now());
      return current(app.id);
    },

    async abort(caller: ToolingCaller, appId: string, reason?: string): Promise<Rollout> {
      const app = await deployableApp(db, caller, appId, 'production');
      const ended = await moves.abort(db, app.id, { reason: reason ?? 'Aborted by the author', by: 'author' }, now());
      if (ended === undefined) throw moves.noRollout();
      deps.metrics.aborted(app.id, 'author');
      return current(app.id);
    },
  };
}
