/**
 * @module apps/installs/outbox
 * Lifecycle events of installs, written to `outbox_events` in the transaction of the change that
 * caused them, for the lifecycle workers to deliver. `payload` is the envelope's `data`
 * (docs/decisions/contract.md): `app.installed` / `app.uninstalled` `{ install }`,
 * `app.reconsentRequired` `{ install, currentVersion, pendingVersion, added }`. An install in a
 * payload is `{ id, workspaceId, kind, version }`: its config never enters the outbox (the envelope
 * adds it decrypted when the delivery is built). `version` (spec Events, rule 5: every payload
 * object carries one) is the install row's `updated_at` in milliseconds: every caller passes as
 * `at` the time it wrote to `updated_at` in the same transaction, so it grows with each change of
 * the install and matches what deliveries carried before it was stored here.
 */
import type { AccessWidening } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { newEventId } from '../../workspace/events/ids.ts';
import { insertOutboxEvent, type InstallRow } from './store.ts';

export type InstallEventType = 'app.installed' | 'app.uninstalled' | 'app.reconsentRequired';

const installRef = (install: Pick<InstallRow, 'id' | 'workspace_id' | 'kind'>, at: Date) =>
  ({ id: install.id, workspaceId: install.workspace_id, kind: install.kind, version: at.getTime() });

/** `actor`: the member who caused it (the one who uninstalled, say); null when nobody did. */
export async function recordInstallEvent(
  tx: Db, install: Pick<InstallRow, 'id' | 'workspace_id' | 'kind'>, type: 'app.installed' | 'app.uninstalled', at: Date,
  actor: { memberId: string; name: string } | null = null,
): Promise<void> {
  await insertOutboxEvent(tx, { id: newEventId(), install_id: install.id, type, payload: { install: installRef(install, at) }, actor, created_at: at });
}

export async function recordReconsentRequired(
  tx: Db, install: Pick<InstallRow, 'id' | 'workspace_id' | 'kind' | 'version'>, pendingVersion: number, added: readonly AccessWidening[], at: Date,
): Promise<void> {
  await insertOutboxEvent(tx, {
    id: newEventId(), install_id: install.id, type: 'app.reconsentRequired',
    payload: { install: installRef(install, at), currentVersion: install.version, pendingVersion, added }, created_at: at,
  });
}
