/**
 * @module apps/rollouts/begin
 * The publish side of a rollout, in the transaction that records the version (under the app's
 * lock): refuse a production version while another rolls out, and start a rollout of the new one.
 */
import { PlatformError } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { idMaker } from '../../core/ids/ids.ts';
import type { VersionRow } from '../versions/store.ts';
import { moveShare } from './share.ts';
import { insertRollout, runningRollout } from './store.ts';

export const newRolloutId = idMaker('rollout');

/** A production version (a publish or a rollback) waits until the running rollout is promoted or aborted. */
export async function refuseDuringRollout(tx: Db, appId: string): Promise<void> {
  const running = await runningRollout(tx, appId);
  if (running === undefined) return;
  throw new PlatformError('PlatformApiConflictError',
    `Version ${running.version} is rolling out (${running.percent} %): promote it or abort it (platform rollout promote|abort) before publishing another production version`,
    { path: ['target'] });
}

/** Starts rolling `version` out to `percent` of the installs that may take it; answers the rollout id. */
export async function beginRollout(tx: Db, version: VersionRow, percent: number, hadProduction: boolean, at: Date): Promise<string> {
  if (!hadProduction) {
    throw new PlatformError('PlatformApiConflictError', 'The app\'s first production version has no installs to roll out to gradually: publish it without a rollout',
      { path: ['rollout'] });
  }
  const id = newRolloutId();
  await insertRollout(tx, { id, app_id: version.app_id, version: version.version, percent, started_at: at });
  await moveShare(tx, id, version, percent, at);
  return id;
}
