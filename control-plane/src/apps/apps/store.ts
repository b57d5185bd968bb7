/**
 * @module apps/apps/store
 * SQL of apps (table of 005_apps.sql) and of the workspace setting that turns apps off.
 */
import type { Db } from '../../core/db/db.ts';

export interface AppRow {
  id: string;
  workspace_id: string;
  owner_member_id: string;
  slug: string;
  name: string;
  hosting: 'self' | 'platform';
  endpoint_url: string | null;
  private: boolean;
  dev_base_slug: string | null;
  client_id: string;
  client_secret_hash: string;
  signing_secret_enc: string;
  previous_signing_secret_enc: string | null;
  previous_signing_secret_expires_at: Date | null;
  created_at: Date;
  /** The asset id of the app's icon (its latest production manifest's `icon`); absent before it has one. */
  icon?: string | null;
}

const COLUMNS = `id, workspace_id, owner_member_id, slug, name, hosting, endpoint_url, private, dev_base_slug, client_id,
  client_secret_hash, signing_secret_enc, previous_signing_secret_enc, previous_signing_secret_expires_at, created_at`;

export async function insertApp(db: Db, row: AppRow): Promise<void> {
  await db.query(
    `insert into apps (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [row.id, row.workspace_id, row.owner_member_id, row.slug, row.name, row.hosting, row.endpoint_url, row.private, row.dev_base_slug,
      row.client_id, row.client_secret_hash, row.signing_secret_enc, row.previous_signing_secret_enc, row.previous_signing_secret_expires_at,
      row.created_at]);
}

/** The app's icon: the `icon` of the manifest members now see (null: none). */
export async function setAppIcon(db: Db, appId: string, icon: string | null): Promise<void> {
  await db.query('update apps set icon = $2 where id = $1 and icon is distinct from $2', [appId, icon]);
}

export async function findApp(db: Db, appId: string): Promise<AppRow | undefined> {
  const { rows } = await db.query<AppRow>(`select ${COLUMNS}, icon from apps where id = $1`, [appId]);
  return rows[0];
}

export async function findAppBySlug(db: Db, slug: string): Promise<AppRow | undefined> {
  const { rows } = await db.query<AppRow>(`select ${COLUMNS}, icon from apps where slug = $1`, [slug]);
  return rows[0];
}

/** Locks the app row until the transaction ends: versions of one app are numbered one at a time. */
export async function lockApp(tx: Db, appId: string): Promise<AppRow | undefined> {
  const { rows } = await tx.query<AppRow>(`select ${COLUMNS}, icon from apps where id = $1 for no key update`, [appId]);
  return rows[0];
}

/** A member's development app for a base slug in a workspace. */
export async function findDevApp(db: Db, workspaceId: string, memberId: string, baseSlug: string): Promise<AppRow | undefined> {
  const { rows } = await db.query<AppRow>(
    `select ${COLUMNS}, icon from apps where workspace_id = $1 and owner_member_id = $2 and dev_base_slug = $3`, [workspaceId, memberId, baseSlug]);
  return rows[0];
}

/** Apps of a workspace, oldest first; only those `ownerId` owns when it is given. */
export async function listApps(db: Db, workspaceId: string, ownerId: string | null): Promise<AppRow[]> {
  const { rows } = await db.query<AppRow>(
    `select ${COLUMNS}, icon from apps where workspace_id = $1 and ($2::text is null or owner_member_id = $2) order by created_at, id`,
    [workspaceId, ownerId]);
  return rows;
}

export async function updateSigningSecrets(db: Db, appId: string, current: string, previous: string | null, previousExpiresAt: Date | null): Promise<void> {
  await db.query(
    'update apps set signing_secret_enc = $2, previous_signing_secret_enc = $3, previous_signing_secret_expires_at = $4 where id = $1',
    [appId, current, previous, previousExpiresAt]);
}

export async function updateClientSecretHash(db: Db, appId: string, hash: string): Promise<void> {
  await db.query('update apps set client_secret_hash = $2 where id = $1', [appId, hash]);
}

/** A development app follows its manifest's name and endpoint (self-hosted apps under development move around). */
export async function updateDevDetails(db: Db, appId: string, name: string, endpointUrl: string | null): Promise<void> {
  await db.query('update apps set name = $2, endpoint_url = $3 where id = $1', [appId, name, endpointUrl]);
}

export async function appsEnabled(db: Db, workspaceId: string): Promise<boolean> {
  const { rows } = await db.query<{ apps_enabled: boolean }>('select apps_enabled from workspace_app_settings where workspace_id = $1', [workspaceId]);
  return rows[0]?.apps_enabled ?? true;
}

export async function setAppsEnabled(db: Db, workspaceId: string, enabled: boolean, memberId: string, at: Date): Promise<void> {
  await db.query(
    `insert into workspace_app_settings (workspace_id, apps_enabled, updated_by, updated_at) values ($1, $2, $3, $4)
     on conflict (workspace_id) do update set apps_enabled = excluded.apps_enabled, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    [workspaceId, enabled, memberId, at]);
}
