/**
 * @module apps/apps/service
 * Apps in the developer area: creating one (client secret shown once and stored hashed, signing
 * secret stored sealed), reading it, its credentials, rotating either secret, and the workspace
 * setting that turns apps off.
 */
import { PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import { generateClientSecret } from '../credentials/client-secret.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import { isUniqueViolation, type Db } from '../../core/db/db.ts';
import { iso } from '../../core/http/common.ts';
import { appNotFound, appsUnavailable, canManage, isWorkspaceAdmin, managedApp, type MemberRef } from './access.ts';
import { checkEndpointHost, checkIdentity } from './identity.ts';
import { newAppId, newClientId } from './ids.ts';
import type { App, CreateAppInput } from './schemas.ts';
import { newSigningSecret, openSigningSecret, SIGNING_ROTATION_MS, signingSecretsFor } from './signing.ts';
import * as store from './store.ts';

export const appView = (row: store.AppRow): App => ({
  id: row.id,
  workspaceId: row.workspace_id,
  ownerMemberId: row.owner_member_id,
  slug: row.slug,
  name: row.name,
  hosting: row.hosting,
  endpoint: row.endpoint_url === null ? null : { url: row.endpoint_url },
  private: row.private,
  development: row.dev_base_slug !== null,
  clientId: row.client_id,
  icon: row.icon ?? null,
  createdAt: iso(row.created_at),
});

export interface NewAppFields {
  workspaceId: string;
  ownerMemberId: string;
  name: string;
  slug: string;
  hosting: 'self' | 'platform';
  endpointUrl: string | null;
  private: boolean;
  devBaseSlug: string | null;
}

export interface CreatedApp {
  row: store.AppRow;
  clientSecret: string;
  signingSecret: string;
}

/**
 * Inserts an app with fresh credentials. A taken slug surfaces as the database's unique violation
 * (callers decide: a 409, or another dev slug).
 */
export async function insertNewApp(db: Db, secrets: Secrets, at: Date, fields: NewAppFields): Promise<CreatedApp> {
  const id = newAppId();
  const client = generateClientSecret();
  const signing = newSigningSecret(secrets, id);
  const row: store.AppRow = {
    id, workspace_id: fields.workspaceId, owner_member_id: fields.ownerMemberId, slug: fields.slug, name: fields.name,
    hosting: fields.hosting, endpoint_url: fields.endpointUrl, private: fields.private, dev_base_slug: fields.devBaseSlug,
    client_id: newClientId(), client_secret_hash: client.hash, signing_secret_enc: signing.sealed,
    previous_signing_secret_enc: null, previous_signing_secret_expires_at: null, created_at: at,
  };
  await store.insertApp(db, row);
  return { row, clientSecret: client.secret, signingSecret: signing.secret };
}

export type AppsService = ReturnType<typeof createAppsService>;

/** `allowLoopbackEndpoints`: development mode, where a self-hosted app may listen on localhost. */
export function createAppsService(deps: { db: Db; clock: Clock; secrets: Secrets; allowLoopbackEndpoints: boolean }) {
  const { db, secrets } = deps;
  const now = () => new Date(deps.clock.now());

  return {
    async create(member: MemberRef, input: CreateAppInput) {
      if (!(await store.appsEnabled(db, member.workspaceId))) throw appsUnavailable();
      checkIdentity(input);
      checkEndpointHost(input.endpoint, { allowLoopback: deps.allowLoopbackEndpoints });
      try {
        const created = await insertNewApp(db, secrets, now(), {
          workspaceId: member.workspaceId, ownerMemberId: member.memberId, name: input.name, slug: input.slug, hosting: input.hosting,
          endpointUrl: input.endpoint?.url ?? null, private: input.private ?? false, devBaseSlug: null,
        });
        return { app: appView(created.row), clientId: created.row.client_id, clientSecret: created.clientSecret, signingSecret: created.signingSecret };
      } catch (err) {
        if (isUniqueViolation(err)) throw new PlatformError('PlatformApiConflictError', `The slug "${input.slug}" is taken`, { path: ['slug'] });
        throw err;
      }
    },

    async get(member: MemberRef, appId: string): Promise<App> {
      return appView(await managedApp(db, member, appId));
    },

    /** Owners and admins see every app of the workspace; other members see the apps they own. */
    async list(member: MemberRef): Promise<App[]> {
      const rows = await store.listApps(db, member.workspaceId, isWorkspaceAdmin(member) ? null : member.memberId);
      return rows.map(appView);
    },

    async credentials(member: MemberRef, appId: string) {
      const app = await managedApp(db, member, appId);
      const [current, previous] = signingSecretsFor(secrets, app, now());
      return {
        clientId: app.client_id,
        signingSecret: current!,
        previousSigningSecret: previous === undefined ? null : { secret: previous, expiresAt: iso(app.previous_signing_secret_expires_at!) },
      };
    },

    /** A new signing secret; the old one keeps signing (as a second signature) for 24 hours. */
    async rotateSigningSecret(member: MemberRef, appId: string) {
      const at = now();
      return db.transaction(async (tx) => {
        // Read under the lock: two rotations at once must not both keep the same "previous" secret.
        const app = await store.lockApp(tx, appId);
        if (app === undefined || !canManage(member, app)) throw appNotFound();
        const fresh = newSigningSecret(secrets, app.id);
        const expiresAt = new Date(at.getTime() + SIGNING_ROTATION_MS);
        await store.updateSigningSecrets(tx, app.id, fresh.sealed, app.signing_secret_enc, expiresAt);
        return {
          clientId: app.client_id,
          signingSecret: fresh.secret,
          previousSigningSecret: { secret: openSigningSecret(secrets, app.id, app.signing_secret_enc), expiresAt: iso(expiresAt) },
        };
      });
    },

    /** A new client secret, shown once; the old one stops working at once. */
    async rotateClientSecret(member: MemberRef, appId: string) {
      const app = await managedApp(db, member, appId);
      const fresh = generateClientSecret();
      await store.updateClientSecretHash(db, app.id, fresh.hash);
      return { clientId: app.client_id, clientSecret: fresh.secret };
    },

    /** The secrets deliveries to the app are signed with now (current first). */
    async signingSecrets(appId: string): Promise<string[]> {
      const app = await store.findApp(db, appId);
      if (app === undefined) throw new PlatformError('PlatformAppNotFoundError', 'No such app');
      return signingSecretsFor(secrets, app, now());
    },

    async settings(member: MemberRef) {
      return { appsEnabled: await store.appsEnabled(db, member.workspaceId) };
    },

    async updateSettings(member: MemberRef, appsEnabled: boolean) {
      if (!isWorkspaceAdmin(member)) throw new PlatformError('PlatformApiForbiddenError', 'Only workspace owners and admins can turn apps on or off');
      await store.setAppsEnabled(db, member.workspaceId, appsEnabled, member.memberId, now());
      return { appsEnabled };
    },
  };
}
