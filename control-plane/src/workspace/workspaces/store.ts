/**
 * @module workspace/workspaces/store
 * SQL of workspaces.
 */
import type { Db } from '../../core/db/db.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  created_at: Date;
}

export async function insertWorkspace(db: Db, row: WorkspaceRow): Promise<void> {
  await db.query('insert into workspaces (id, name, created_at) values ($1, $2, $3)', [row.id, row.name, row.created_at]);
}

export async function findWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  const { rows } = await db.query<WorkspaceRow>('select id, name, created_at from workspaces where id = $1', [id]);
  return rows[0];
}
