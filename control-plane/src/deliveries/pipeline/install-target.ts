/**
 * @module deliveries/pipeline/install-target
 * What an interactive delivery needs to know about the install it goes to: the install (kind,
 * status, the version it runs, its sealed config) and its app (slug, hosting, endpoint, sealed
 * signing secrets). Features that already read these columns in their own query (the blocks
 * feature joins them onto a block) build the same shape from their row.
 */
import type { Db } from '../../core/db/db.ts';

export interface InstallTarget {
  installId: string;
  workspaceId: string;
  installKind: 'workspace' | 'dev';
  installStatus: 'active' | 'uninstalled' | 'suspended';
  /** The version the install runs (`app.version` of the envelope). */
  version: number;
  scopes: string[];
  configEnc: string | null;
  app: {
    id: string;
    slug: string;
    name: string;
    hosting: 'self' | 'platform';
    endpointUrl: string | null;
    signingSecretEnc: string;
    previousSigningSecretEnc: string | null;
    previousSigningSecretExpiresAt: Date | null;
  };
}

/** The columns of `installs i join apps a` a target is made of, under the names `targetFromRow` reads. */
export const TARGET_COLUMNS = `i.id as t_install_id, i.workspace_id as t_workspace_id, i.kind as t_install_kind, i.status as t_install_status,
  i.version as t_version, i.approved_scopes as t_scopes, i.config_enc as t_config_enc, a.id as t_app_id, a.slug as t_slug, a.name as t_app_name, a.icon as t_app_icon,
  a.hosting as t_hosting, a.endpoint_url as t_endpoint_url, a.signing_secret_enc as t_signing_secret_enc,
  a.previous_signing_secret_enc as t_previous_signing_secret_enc, a.previous_signing_secret_expires_at as t_previous_signing_secret_expires_at`;

export interface TargetColumns {
  t_install_id: string;
  t_workspace_id: string;
  t_install_kind: 'workspace' | 'dev';
  t_install_status: 'active' | 'uninstalled' | 'suspended';
  t_version: number;
  t_scopes: string[];
  t_config_enc: string | null;
  t_app_id: string;
  t_slug: string;
  t_app_name: string;
  t_app_icon: string | null;
  t_hosting: 'self' | 'platform';
  t_endpoint_url: string | null;
  t_signing_secret_enc: string;
  t_previous_signing_secret_enc: string | null;
  t_previous_signing_secret_expires_at: Date | null;
}

export function targetFromRow(row: TargetColumns): InstallTarget {
  return {
    installId: row.t_install_id,
    workspaceId: row.t_workspace_id,
    installKind: row.t_install_kind,
    installStatus: row.t_install_status,
    version: row.t_version,
    scopes: row.t_scopes,
    configEnc: row.t_config_enc,
    app: {
      id: row.t_app_id,
      slug: row.t_slug,
      name: row.t_app_name,
      hosting: row.t_hosting,
      endpointUrl: row.t_endpoint_url,
      signingSecretEnc: row.t_signing_secret_enc,
      previousSigningSecretEnc: row.t_previous_signing_secret_enc,
      previousSigningSecretExpiresAt: row.t_previous_signing_secret_expires_at,
    },
  };
}

/**
 * @example
 * const target = await findInstallTarget(db, caller.installId);
 */
export async function findInstallTarget(db: Db, installId: string): Promise<InstallTarget | undefined> {
  const { rows } = await db.query<TargetColumns>(
    `select ${TARGET_COLUMNS} from installs i join apps a on a.id = i.app_id where i.id = $1`, [installId]);
  return rows[0] === undefined ? undefined : targetFromRow(rows[0]);
}
