/**
 * @module apps/installs/store
 * SQL of installs (table of 005_apps.sql) and of the outbox events their changes record.
 */
import type { Db } from '../../core/db/db.ts';

export type InstallStatus = 'active' | 'uninstalled' | 'suspended';
export type InstallKind = 'workspace' | 'dev';

export interface InstallRow {
  id: string;
  app_id: string;
  workspace_id: string;
  kind: InstallKind;
  version: number;
  approved_scopes: string[];
  pending_version: number | null;
  config_enc: string | null;
  status: InstallStatus;
  deliveries_paused_at: Date | null;
  installed_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, app_id, workspace_id, kind, version, approved_scopes, pending_version, config_enc, status, deliveries_paused_at,
  installed_by_member_id, created_at, updated_at`;

export async function insertInstall(db: Db, row: InstallRow): Promise<void> {
  await db.query(
    `insert into installs (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [row.id, row.app_id, row.workspace_id, row.kind, row.version, JSON.stringify(row.approved_scopes), row.pending_version, row.config_enc,
      row.status, row.deliveries_paused_at, row.installed_by_member_id, row.created_at, row.updated_at]);
}

export async function findInstall(db: Db, installId: string): Promise<InstallRow | undefined> {
  const { rows } = await db.query<InstallRow>(`select ${COLUMNS} from installs where id = $1`, [installId]);
  return rows[0];
}

/** Locks the install row until the transaction ends. */
export async function lockInstall(tx: Db, installId: string): Promise<InstallRow | undefined> {
  const { rows } = await tx.query<InstallRow>(`select ${COLUMNS} from installs where id = $1 for no key update`, [installId]);
  return rows[0];
}

/** The install of an app in a workspace of a kind that is not uninstalled (at most one: unique index). */
export async function findLiveInstall(db: Db, appId: string, workspaceId: string, kind: InstallKind): Promise<InstallRow | undefined> {
  const { rows } = await db.query<InstallRow>(
    `select ${COLUMNS} from installs where app_id = $1 and workspace_id = $2 and kind = $3 and status <> 'uninstalled'`, [appId, workspaceId, kind]);
  return rows[0];
}

/** Installs of an app of one kind that are not uninstalled, locked for a version change. */
export async function lockLiveInstallsOfApp(tx: Db, appId: string, kind: InstallKind): Promise<InstallRow[]> {
  const { rows } = await tx.query<InstallRow>(
    `select ${COLUMNS} from installs where app_id = $1 and kind = $2 and status <> 'uninstalled' order by id for no key update`, [appId, kind]);
  return rows;
}

export async function listWorkspaceInstalls(db: Db, workspaceId: string): Promise<InstallRow[]> {
  const { rows } = await db.query<InstallRow>(
    `select ${COLUMNS} from installs where workspace_id = $1 and status <> 'uninstalled' order by created_at, id`, [workspaceId]);
  return rows;
}

/** Moves an install to a version with the scopes approved for it; any pending version is settled. */
export async function moveInstall(db: Db, installId: string, version: number, scopes: readonly string[], at: Date): Promise<void> {
  await db.query('update installs set version = $2, approved_scopes = $3, pending_version = null, updated_at = $4 where id = $1',
    [installId, version, JSON.stringify(scopes), at]);
}

export async function setPendingVersion(db: Db, installId: string, version: number, at: Date): Promise<void> {
  await db.query('update installs set pending_version = $2, updated_at = $3 where id = $1', [installId, version, at]);
}

export async function setConfig(db: Db, installId: string, configEnc: string | null, at: Date): Promise<void> {
  await db.query('update installs set config_enc = $2, updated_at = $3 where id = $1', [installId, configEnc, at]);
}

export async function setStatus(db: Db, installId: string, status: InstallStatus, at: Date): Promise<void> {
  await db.query('update installs set status = $2, updated_at = $3 where id = $1', [installId, status, at]);
}

export interface OutboxEventRow {
  id: string;
  install_id: string;
  type: string;
  payload: unknown;
  created_at: Date;
  /** The member who caused the event (the envelope's `actor`), when one did. */
  actor?: { memberId: string; name: string } | null;
}

export async function insertOutboxEvent(db: Db, row: OutboxEventRow): Promise<void> {
  await db.query('insert into outbox_events (id, install_id, type, payload, actor, created_at) values ($1, $2, $3, $4, $5, $6)',
    [row.id, row.install_id, row.type, JSON.stringify(row.payload), row.actor == null ? null : JSON.stringify(row.actor), row.created_at]);
}

export async function listOutboxEvents(db: Db, installId: string): Promise<OutboxEventRow[]> {
  const { rows } = await db.query<OutboxEventRow>(
    'select id, install_id, type, payload, created_at from outbox_events where install_id = $1 order by created_at, id', [installId]);
  return rows;
}
