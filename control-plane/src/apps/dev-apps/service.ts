/**
 * @module apps/dev-apps/service
 * `PUT /v0/apps/dev`: a member's development app. The first sync for a slug creates the app with
 * a random suffix (`polls-k3x9`), private to the workspace; every sync records the manifest as a
 * preview (its slug rewritten to the app's) and makes sure the member's `dev` install exists and
 * runs it.
 */
import { PlatformError, manifestErrorToPlatformError, validateManifest, type Manifest } from '@platform/sdk';
import type { AgentCaller, DeployCaller, MemberCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import { isUniqueViolation, type Db } from '../../core/db/db.ts';
import { canDevSync, mayRevealSigningSecret } from '../guards/index.ts';
import { appsUnavailable } from '../apps/access.ts';
import { devSlugSuffix } from '../apps/ids.ts';
import { insertNewApp } from '../apps/service.ts';
import { openSigningSecret } from '../apps/signing.ts';
import { appsEnabled, findDevApp, updateDevDetails, type AppRow } from '../apps/store.ts';
import type { PublishService } from '../publish/service.ts';
import { ensureDevInstall } from './install.ts';

/** Random suffixes tried before answering `PlatformAppDevSlugUnavailableError`. */
export const DEV_SLUG_TRIES = 8;
const SLUG_MAX = 32;

// A type alias, not an interface: it must fit the response schema's open (loose) object type.
export type DevSyncResult = {
  appId: string;
  slug: string;
  clientId: string;
  devInstallId: string;
  signingSecret?: string;
  version: number;
  playgroundUrl: string;
  created: boolean;
};

/** `polls` + `k3x9` → `polls-k3x9`, the base cut so the whole stays within 32 characters. */
export function devSlug(base: string, suffix: string): string {
  const room = SLUG_MAX - suffix.length - 1;
  return `${base.slice(0, room).replace(/-+$/, '')}-${suffix}`;
}

export type DevAppsService = ReturnType<typeof createDevAppsService>;

export function createDevAppsService(deps: {
  db: Db; clock: Clock; secrets: Secrets; versions: PublishService; publicUrl: string; slugSuffix?: () => string;
}) {
  const { db } = deps;
  const suffix = deps.slugSuffix ?? devSlugSuffix;

  /** The member's development app for the manifest's slug, created on first use. */
  async function findOrCreate(member: { workspaceId: string; memberId: string }, manifest: Manifest): Promise<{ app: AppRow; created: boolean }> {
    for (let attempt = 0; attempt < DEV_SLUG_TRIES; attempt++) {
      const existing = await findDevApp(db, member.workspaceId, member.memberId, manifest.slug);
      if (existing !== undefined) return { app: existing, created: false };
      try {
        const made = await insertNewApp(db, deps.secrets, new Date(deps.clock.now()), {
          workspaceId: member.workspaceId, ownerMemberId: member.memberId, name: manifest.name, slug: devSlug(manifest.slug, suffix()),
          hosting: manifest.hosting, endpointUrl: manifest.endpoint?.url ?? null, private: true, devBaseSlug: manifest.slug,
        });
        return { app: made.row, created: true };
      } catch (err) {
        // A taken slug: try another suffix. A concurrent first sync of the same member and slug
        // also lands here (the dev index); the next turn finds its app.
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw new PlatformError('PlatformAppDevSlugUnavailableError',
      `No free development slug for "${manifest.slug}" after ${DEV_SLUG_TRIES} tries; try again or pick another slug`, { path: ['manifest', 'slug'] });
  }

  return {
    async sync(caller: MemberCaller | DeployCaller | AgentCaller, input: { manifest: Record<string, unknown>; reveal?: 'signing-secret' | undefined }): Promise<DevSyncResult> {
      const verdict = canDevSync(caller);
      if (verdict === 'target-forbidden') {
        throw new PlatformError('PlatformAppDeployTargetForbiddenError', 'Deploy tokens cannot sync a development app; use a member API key');
      }
      if (caller.kind === 'deploy' || verdict !== 'allowed') throw new PlatformError('PlatformAppTokenInvalidError', 'This credential cannot sync a development app');
      if (!(await appsEnabled(db, caller.workspaceId))) throw appsUnavailable();
      // Validated once without context to learn the slug; the version is validated with it below.
      const first = validateManifest(input.manifest);
      if (!first.valid) throw manifestErrorToPlatformError(first.error);
      const { app, created } = await findOrCreate(caller, first.manifest);
      const endpointUrl = first.manifest.endpoint?.url ?? null;
      if (!created && (endpointUrl !== app.endpoint_url || first.manifest.name !== app.name)) {
        await updateDevDetails(db, app.id, first.manifest.name, endpointUrl);
      }
      const accepted = await deps.versions.accept(app, 'preview', { ...input.manifest, slug: app.slug }, null);
      const install = await ensureDevInstall(db, { app, member: caller, version: accepted.row, at: new Date(deps.clock.now()) });
      return {
        appId: app.id,
        slug: app.slug,
        clientId: app.client_id,
        devInstallId: install.id,
        ...(input.reveal === 'signing-secret' && mayRevealSigningSecret(caller)
          ? { signingSecret: openSigningSecret(deps.secrets, app.id, app.signing_secret_enc) } : {}),
        version: accepted.row.version,
        playgroundUrl: `${deps.publicUrl}/console/apps/${encodeURIComponent(app.id)}/playground`,
        created,
      };
    },
  };
}
