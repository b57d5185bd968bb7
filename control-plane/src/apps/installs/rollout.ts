/**
 * @module apps/installs/rollout
 * What a new version does to installs, in the transaction that records it. A preview moves the
 * app's development installs at once (the developer approves by syncing). A production version
 * moves each workspace install whose access it does not widen; one that widens access (the
 * contract's `accessWidening` against the version the install runs) leaves the install on its
 * version, marks the new one pending and records `app.reconsentRequired`.
 */
import { accessWidening } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { findVersion, type VersionRow } from '../versions/store.ts';
import { recordReconsentRequired } from './outbox.ts';
import { lockLiveInstallsOfApp, moveInstall, setPendingVersion } from './store.ts';

export interface RolloutResult {
  moved: string[];
  pending: string[];
}

export async function rollOutVersion(tx: Db, version: VersionRow, at: Date): Promise<RolloutResult> {
  const result: RolloutResult = { moved: [], pending: [] };
  if (version.target === 'preview') {
    for (const install of await lockLiveInstallsOfApp(tx, version.app_id, 'dev')) {
      await moveInstall(tx, install.id, version.version, version.manifest.scopes, at);
      result.moved.push(install.id);
    }
    return result;
  }
  for (const install of await lockLiveInstallsOfApp(tx, version.app_id, 'workspace')) {
    if (install.version >= version.version) continue;
    const current = await findVersion(tx, version.app_id, install.version);
    const added = current === undefined ? [] : accessWidening(current.manifest, version.manifest);
    if (added.length === 0) {
      await moveInstall(tx, install.id, version.version, version.manifest.scopes, at);
      result.moved.push(install.id);
    } else {
      await setPendingVersion(tx, install.id, version.version, at);
      await recordReconsentRequired(tx, install, version.version, added, at);
      result.pending.push(install.id);
    }
  }
  return result;
}
