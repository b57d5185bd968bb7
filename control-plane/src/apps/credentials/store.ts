/**
 * @module apps/credentials/store
 * The rows credential checks read: an install (its status and approved scopes apply at once to
 * every token already issued), an app by client id, a member.
 */
import type { Db } from '../../core/db/db.ts';

export interface InstallAuthRow {
  id: string;
  app_id: string;
  workspace_id: string;
  kind: 'workspace' | 'dev';
  status: 'active' | 'uninstalled' | 'suspended';
  approved_scopes: string[];
}

export async function findInstallForAuth(db: Db, installId: string): Promise<InstallAuthRow | undefined> {
  const { rows } = await db.query<InstallAuthRow>(
    'select id, app_id, workspace_id, kind, status, approved_scopes from installs where id = $1', [installId]);
  return rows[0];
}

export async function findAppByClientId(db: Db, clientId: string): Promise<{ id: string; client_secret_hash: string } | undefined> {
  const { rows } = await db.query<{ id: string; client_secret_hash: string }>('select id, client_secret_hash from apps where client_id = $1', [clientId]);
  return rows[0];
}

export async function memberInWorkspace(db: Db, memberId: string, workspaceId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from members where id = $1 and workspace_id = $2', [memberId, workspaceId]);
  return rowCount > 0;
}
