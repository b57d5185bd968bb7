/**
 * @module apps/rollouts/moves
 * The transitions of a running rollout, each in a transaction under the app's lock (so they
 * serialise with publishes and with each other across control planes): advance, promote, abort.
 */
import { PlatformError } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { lockApp } from '../apps/store.ts';
import { rollOutVersion } from '../installs/rollout.ts';
import { lockInstall, moveInstall } from '../installs/store.ts';
import { findVersion } from '../versions/store.ts';
import { moveShare } from './share.ts';
import { finishRollout, markReverted, movedInstalls, runningRollout, setPercent, type RolloutRow } from './store.ts';

export const noRollout = () => new PlatformError('PlatformApiConflictError', 'No rollout of this app is running', { path: ['rollout'] });

/** The app's running rollout, locked with the app; `undefined` when none runs. */
async function locked(tx: Db, appId: string): Promise<RolloutRow | undefined> {
  await lockApp(tx, appId);
  return runningRollout(tx, appId, true);
}

export async function advance(db: Db, appId: string, percent: number, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const rollout = await locked(tx, appId);
    if (rollout === undefined) throw noRollout();
    if (percent <= rollout.percent) {
      throw new PlatformError('PlatformApiInvalidRequestError', `The rollout is at ${rollout.percent} % already: advance it to more`, { path: ['percent'] });
    }
    await setPercent(tx, rollout.id, percent, at);
    await moveShare(tx, rollout.id, (await findVersion(tx, appId, rollout.version))!, percent, at);
  });
}

/** Every install moves as a plain publish would move it (those whose access it widens are asked). */
export async function promote(db: Db, appId: string, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const rollout = await locked(tx, appId);
    if (rollout === undefined) throw noRollout();
    await finishRollout(tx, rollout.id, { status: 'promoted', at });
    await rollOutVersion(tx, (await findVersion(tx, appId, rollout.version))!, at);
  });
}

/**
 * Every install the rollout moved that still runs the version goes back to the version (and the
 * scopes) it ran before. Answers the rollout when this call ended it, else `undefined` (none ran,
 * or another control plane ended it first: the conditional update decides).
 */
export async function abort(db: Db, appId: string, end: {
  reason: string; by: 'author' | 'platform'; verdict?: unknown; rolloutId?: string;
  /** Runs in the same transaction once the abort is decided (the owner's mail commits with it). */
  onAborted?: (tx: Db, rollout: RolloutRow) => Promise<void>;
}, at: Date): Promise<RolloutRow | undefined> {
  return db.transaction(async (tx) => {
    const rollout = await locked(tx, appId);
    if (rollout === undefined || (end.rolloutId !== undefined && rollout.id !== end.rolloutId)) return undefined;
    if (!(await finishRollout(tx, rollout.id, { status: 'aborted', reason: end.reason, abortedBy: end.by, verdict: end.verdict, at }))) return undefined;
    for (const moved of await movedInstalls(tx, rollout.id)) {
      if (moved.reverted_at !== null) continue;
      const install = await lockInstall(tx, moved.install_id);
      if (install === undefined || install.status === 'uninstalled' || install.version !== rollout.version) continue;
      await moveInstall(tx, install.id, moved.previous_version, moved.previous_scopes, at);
      await markReverted(tx, rollout.id, install.id, at);
    }
    await end.onAborted?.(tx, rollout);
    return rollout;
  });
}
