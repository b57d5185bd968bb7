/**
 * @module apps/installs/service
 * Installs in the client API: the consent screen's data, installing with approval (owners and
 * admins), approving a pending version, the install config, uninstalling, suspending (operator).
 * Each install runs one version and holds the scopes approved for it.
 */
import { keepSpace, retainSpace } from '../storage/retention.ts';
import { PlatformError, accessWidening, type Manifest } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import { isUniqueViolation, type Db } from '../../core/db/db.ts';
import { appNotFound, appsUnavailable, isWorkspaceAdmin, type MemberRef } from '../apps/access.ts';
import { newInstallId } from '../apps/ids.ts';
import { appsEnabled, findApp, type AppRow } from '../apps/store.ts';
import { findVersion, servedProductionVersion, type VersionRow } from '../versions/store.ts';
import type { SchemaValidatorCache } from '../versions/validators.ts';
import { consentFor } from './consent.ts';
import { checkConfig, installConfigFor, sealConfig, secretFieldPaths, type InstallConfig } from './config.ts';
import { recordInstallEvent } from './outbox.ts';
import type { Consent, Install } from './schemas.ts';
import * as store from './store.ts';
import { installView } from './view.ts';

const installNotFound = () => new PlatformError('PlatformAppInstallNotFoundError', 'No such install in this workspace', { path: ['installId'] });
const conflict = (message: string, path: string[] = []) => new PlatformError('PlatformApiConflictError', message, { path });

function requireAdmin(member: MemberRef, what: string): void {
  if (!isWorkspaceAdmin(member)) throw new PlatformError('PlatformApiForbiddenError', `Only workspace owners and admins can ${what}`);
}

/** Secret fields the new config leaves out keep the value they had (the form never shows them). */
function keepSecrets(next: InstallConfig, previous: InstallConfig | undefined, manifest: Manifest): InstallConfig {
  if (previous === undefined) return next;
  const merged = structuredClone(next);
  for (const path of secretFieldPaths(manifest.installConfig)) {
    let from: unknown = previous;
    let to: Record<string, unknown> = merged;
    for (const key of path.slice(0, -1)) {
      from = (from as Record<string, unknown> | undefined)?.[key];
      const child = to[key];
      if (child === null || typeof child !== 'object' || Array.isArray(child)) break;
      to = child as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    const old = (from as Record<string, unknown> | undefined)?.[last];
    if (!Object.hasOwn(to, last) && old !== undefined) to[last] = old;
  }
  return merged;
}

export type InstallsService = ReturnType<typeof createInstallsService>;

export function createInstallsService(deps: { db: Db; clock: Clock; secrets: Secrets; validators: SchemaValidatorCache }) {
  const { db, secrets } = deps;
  const now = () => new Date(deps.clock.now());

  /** An app the member's workspace may install: its own apps, and any app that is not private. */
  const installableApp = async (member: MemberRef, appId: string): Promise<AppRow> => {
    const app = await findApp(db, appId);
    if (app === undefined || (app.private && app.workspace_id !== member.workspaceId)) throw appNotFound();
    return app;
  };

  const published = async (app: AppRow): Promise<VersionRow> => {
    // Not a version under a rollout or aborted by one (docs/decisions/rollouts.md).
    const served = await servedProductionVersion(db, app.id);
    const version = served === undefined ? undefined : await findVersion(db, app.id, served);
    if (version === undefined) throw conflict('The app has no published (production) version to install');
    return version;
  };

  const visibleInstall = async (member: MemberRef, installId: string): Promise<store.InstallRow> => {
    const install = await store.findInstall(db, installId);
    if (install === undefined || install.workspace_id !== member.workspaceId || install.status === 'uninstalled') throw installNotFound();
    return install;
  };

  const view = async (install: store.InstallRow, db_: Db = db): Promise<Install> => {
    const app = (await findApp(db_, install.app_id))!;
    const version = (await findVersion(db_, install.app_id, install.version))!;
    return installView(install, app, installConfigFor(secrets, install), secretFieldPaths(version.manifest.installConfig));
  };

  const validatedConfig = async (app: AppRow, version: VersionRow, config: InstallConfig | undefined) => {
    const validators = await deps.validators.schemaValidators(app.id, version.version);
    return checkConfig(validators.installConfig, config);
  };

  return {
    /** What the consent screen shows before installing: the latest published version. */
    async consentForApp(member: MemberRef, appId: string): Promise<Consent> {
      const app = await installableApp(member, appId);
      return consentFor(app, await published(app), null);
    },

    /** What the consent screen shows for a pending version: what it adds over the current one. */
    async consentForInstall(member: MemberRef, installId: string): Promise<Consent> {
      const install = await visibleInstall(member, installId);
      if (install.pending_version === null) throw conflict('No version of this app waits for approval');
      const app = (await findApp(db, install.app_id))!;
      const pending = (await findVersion(db, app.id, install.pending_version))!;
      const current = (await findVersion(db, app.id, install.version))!;
      return consentFor(app, pending, { version: current.version, added: accessWidening(current.manifest, pending.manifest) });
    },

    async install(member: MemberRef, appId: string, input: { version: number; config?: InstallConfig | undefined }): Promise<Install> {
      requireAdmin(member, 'install apps');
      if (!(await appsEnabled(db, member.workspaceId))) throw appsUnavailable();
      const app = await installableApp(member, appId);
      const version = await published(app);
      if (input.version !== version.version) {
        throw conflict(`Version ${version.version} is the one to approve now; review the consent screen again`, ['version']);
      }
      const config = await validatedConfig(app, version, input.config);
      const at = now();
      const id = newInstallId();
      const row: store.InstallRow = {
        id, app_id: app.id, workspace_id: member.workspaceId, kind: 'workspace', version: version.version,
        approved_scopes: [...version.manifest.scopes], pending_version: null,
        config_enc: config === undefined ? null : sealConfig(secrets, id, config), status: 'active', deliveries_paused_at: null,
        installed_by_member_id: member.memberId, created_at: at, updated_at: at,
      };
      try {
        return await db.transaction(async (tx) => {
          await store.insertInstall(tx, row);
          // A reinstall within the retention period finds the data the uninstall kept.
          await keepSpace(tx, { appId: app.id, workspaceId: member.workspaceId, kind: 'workspace' });
          await recordInstallEvent(tx, row, 'app.installed', at);
          return view(row, tx);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('The app is already installed in this workspace');
        throw err;
      }
    },

    async list(member: MemberRef): Promise<Install[]> {
      const rows = await store.listWorkspaceInstalls(db, member.workspaceId);
      return Promise.all(rows.map((row) => view(row)));
    },

    async get(member: MemberRef, installId: string): Promise<Install> {
      return view(await visibleInstall(member, installId));
    },

    /** Moves the install to its pending version, with that version's scopes. */
    async approve(member: MemberRef, installId: string, input: { version: number; config?: InstallConfig | undefined }): Promise<Install> {
      requireAdmin(member, 'approve app versions');
      const visible = await visibleInstall(member, installId);
      const app = (await findApp(db, visible.app_id))!;
      return db.transaction(async (tx) => {
        const install = (await store.lockInstall(tx, installId))!;
        if (install.pending_version === null || install.pending_version !== input.version) {
          throw conflict(install.pending_version === null ? 'No version of this app waits for approval'
            : `Version ${install.pending_version} is the one waiting; review the consent screen again`, ['version']);
        }
        const pending = (await findVersion(tx, app.id, install.pending_version))!;
        const previous = installConfigFor(secrets, install);
        const proposed = input.config === undefined ? previous : keepSecrets(input.config, previous, pending.manifest);
        const config = await validatedConfig(app, pending, proposed);
        const at = now();
        await store.moveInstall(tx, install.id, pending.version, pending.manifest.scopes, at);
        await store.setConfig(tx, install.id, config === undefined ? null : sealConfig(secrets, install.id, config), at);
        return view((await store.findInstall(tx, install.id))!, tx);
      });
    },

    async updateConfig(member: MemberRef, installId: string, config: InstallConfig): Promise<Install> {
      requireAdmin(member, 'change install config');
      const install = await visibleInstall(member, installId);
      const app = (await findApp(db, install.app_id))!;
      const version = (await findVersion(db, app.id, install.version))!;
      const checked = await validatedConfig(app, version, keepSecrets(config, installConfigFor(secrets, install), version.manifest));
      await store.setConfig(db, install.id, checked === undefined ? null : sealConfig(secrets, install.id, checked), now());
      return view((await store.findInstall(db, install.id))!);
    },

    /** The member who uninstalls is the `actor` of the `app.uninstalled` delivery. */
    async uninstall(member: MemberRef & { name: string }, installId: string): Promise<void> {
      requireAdmin(member, 'uninstall apps');
      const install = await visibleInstall(member, installId);
      await db.transaction(async (tx) => {
        const at = now();
        await store.setStatus(tx, install.id, 'uninstalled', at);
        await retainSpace(tx, { appId: install.app_id, workspaceId: install.workspace_id, kind: install.kind }, at);
        await recordInstallEvent(tx, install, 'app.uninstalled', at, { memberId: member.memberId, name: member.name });
      });
    },

    /** Operator action: a suspended install's tokens stop working and it receives nothing. */
    async setSuspended(installId: string, suspended: boolean): Promise<Install> {
      const install = await store.findInstall(db, installId);
      if (install === undefined || install.status === 'uninstalled') throw installNotFound();
      await store.setStatus(db, install.id, suspended ? 'suspended' : 'active', now());
      return view((await store.findInstall(db, install.id))!);
    },
  };
}
