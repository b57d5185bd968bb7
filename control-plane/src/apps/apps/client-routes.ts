/**
 * @module apps/apps/client-routes
 * `/apps` of the client API (developer area): create, read, list, credentials and their rotation;
 * `/app-settings`: whether the workspace allows apps.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { AppCredentials, AppList, AppResponse, AppSettings, AppSettingsBody, ClientSecretResponse, CreateAppBody, CreateAppResponse } from './schemas.ts';
import type { AppsService } from './service.ts';

const unavailable = { status: 403, description: 'PlatformAppsUnavailableError: apps are turned off in this workspace' };
const conflict = { status: 409, description: 'PlatformApiConflictError: the slug is taken' };
const invalid = { status: 422, description: 'PlatformAppManifestInvalidError: reserved name or slug, an endpoint that does not fit the hosting, or an endpoint host deliveries would refuse in this mode (`reason`: `endpoint-address`)' };
const forbidden = { status: 403, description: 'PlatformApiForbiddenError: only workspace owners and admins' };

export function registerAppClientRoutes(api: ClientApi, apps: AppsService): void {
  api.route({
    operationId: 'createApp', method: 'post', path: '/apps', tag: 'apps', auth: 'member',
    summary: 'Create an app; answers its client secret (once) and its signing secret',
    body: CreateAppBody, status: 201, response: CreateAppResponse, errors: [unavailable, conflict, invalid],
  }, async ({ auth, body }) => apps.create(auth, body));

  api.route({
    operationId: 'listApps', method: 'get', path: '/apps', tag: 'apps', auth: 'member',
    summary: 'Apps you manage: the ones you own (owners and admins: every app of the workspace)', status: 200, response: AppList,
  }, async ({ auth }) => ({ items: await apps.list(auth) }));

  api.route({
    operationId: 'getApp', method: 'get', path: '/apps/{appId}', tag: 'apps', auth: 'member',
    summary: 'One app you manage', status: 200, response: AppResponse,
  }, async ({ auth, params }) => ({ app: await apps.get(auth, params.appId) }));

  api.route({
    operationId: 'getAppCredentials', method: 'get', path: '/apps/{appId}/credentials', tag: 'apps', auth: 'member',
    summary: 'Client id and signing secrets (the app\'s owner, workspace owners and admins)', status: 200, response: AppCredentials,
  }, async ({ auth, params }) => apps.credentials(auth, params.appId));

  api.route({
    operationId: 'rotateSigningSecret', method: 'post', path: '/apps/{appId}/signing-secret/rotate', tag: 'apps', auth: 'member',
    summary: 'New signing secret; for 24 hours deliveries carry a signature with the previous one too', status: 200, response: AppCredentials,
  }, async ({ auth, params }) => apps.rotateSigningSecret(auth, params.appId));

  api.route({
    operationId: 'rotateClientSecret', method: 'post', path: '/apps/{appId}/client-secret/rotate', tag: 'apps', auth: 'member',
    summary: 'New client secret, shown once; the previous one stops working at once', status: 200, response: ClientSecretResponse,
  }, async ({ auth, params }) => apps.rotateClientSecret(auth, params.appId));

  api.route({
    operationId: 'getAppSettings', method: 'get', path: '/app-settings', tag: 'apps', auth: 'member',
    summary: 'Whether apps are available in the workspace', status: 200, response: AppSettings,
  }, async ({ auth }) => apps.settings(auth));

  api.route({
    operationId: 'updateAppSettings', method: 'put', path: '/app-settings', tag: 'apps', auth: 'member',
    summary: 'Turn apps on or off in the workspace (owners and admins)', body: AppSettingsBody, status: 200, response: AppSettings, errors: [forbidden],
  }, async ({ auth, body }) => apps.updateSettings(auth, body.appsEnabled));
}
