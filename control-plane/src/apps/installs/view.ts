/**
 * @module apps/installs/view
 * An install as the client API shows it: its config without secret fields.
 */
import { iso } from '../../core/http/common.ts';
import type { AppRow } from '../apps/store.ts';
import { redactConfig, type InstallConfig } from './config.ts';
import type { Install } from './schemas.ts';
import type { InstallRow } from './store.ts';

export function installView(row: InstallRow, app: Pick<AppRow, 'id' | 'slug' | 'name' | 'icon'>, config: InstallConfig | undefined, secretPaths: string[][]): Install {
  const shown = redactConfig(config, secretPaths);
  return {
    id: row.id,
    appId: row.app_id,
    app: { id: app.id, slug: app.slug, name: app.name, icon: app.icon ?? null },
    workspaceId: row.workspace_id,
    kind: row.kind,
    version: row.version,
    pendingVersion: row.pending_version,
    scopes: row.approved_scopes,
    status: row.status,
    config: shown.config,
    secretsSet: shown.secretsSet,
    installedBy: row.installed_by_member_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
