/**
 * @module apps/rollouts/share
 * Which installs a rollout moves. Every install that may take the version without a new consent
 * is ranked by sha256(rollout id, install id); a rollout at p % has moved the first ⌈p·N/100⌉ of
 * the N such installs (those it moved plus those still waiting), so the share is exact up to one
 * install, at least one install moves, and raising p only adds the next ones in the same order:
 * an install moved at 10 % is still moved at 50 %. The rank is stable across control planes and
 * restarts (nothing random is kept), and fresh for each rollout (another release chooses others).
 */
import { createHash } from 'node:crypto';
import { accessWidening } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { lockLiveInstallsOfApp, moveInstall, type InstallRow } from '../installs/store.ts';
import { findVersion, type VersionRow } from '../versions/store.ts';
import { movedInstalls, recordMoved } from './store.ts';

export const rank = (rolloutId: string, installId: string): string => createHash('sha256').update(`${rolloutId}:${installId}`).digest('hex');

/**
 * Installs the version may move to now: live workspace installs on an older version, not waiting
 * on a reconsent (those are left as they are), whose access the version does not widen (those are
 * asked when the rollout is promoted, as a plain publish asks them). Locked for the move.
 */
export async function candidates(tx: Db, version: VersionRow): Promise<InstallRow[]> {
  const out: InstallRow[] = [];
  const manifests = new Map<number, VersionRow | undefined>();
  for (const install of await lockLiveInstallsOfApp(tx, version.app_id, 'workspace')) {
    if (install.version >= version.version || install.pending_version !== null) continue;
    if (!manifests.has(install.version)) manifests.set(install.version, await findVersion(tx, version.app_id, install.version));
    const current = manifests.get(install.version);
    if (current === undefined || accessWidening(current.manifest, version.manifest).length === 0) out.push(install);
  }
  return out;
}

/** Moves installs until `percent` of those that may take the version run it; answers the ids it moved now. */
export async function moveShare(tx: Db, rolloutId: string, version: VersionRow, percent: number, at: Date): Promise<string[]> {
  const waiting = await candidates(tx, version);
  const already = (await movedInstalls(tx, rolloutId)).filter((m) => m.reverted_at === null).length;
  const target = Math.ceil((percent * (already + waiting.length)) / 100);
  const chosen = waiting
    .map((install) => ({ install, key: rank(rolloutId, install.id) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, Math.max(0, target - already));
  for (const { install } of chosen) {
    await recordMoved(tx, rolloutId, install.id, install.version, install.approved_scopes, at);
    await moveInstall(tx, install.id, version.version, version.manifest.scopes, at);
  }
  return chosen.map((c) => c.install.id);
}
