/**
 * @module apps/installs/client-routes
 * Installs in the client API: `/apps/{appId}/consent` and `/apps/{appId}/installs` (install with
 * approval), `/installs` (list, read, approve a pending version, config, uninstall) and the
 * operator's `/installs/{installId}/suspend` and `/resume`.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { ApproveBody, ConfigBody, ConsentResponse, InstallBody, InstallList, InstallResponse } from './schemas.ts';
import type { InstallsService } from './service.ts';

const forbidden = { status: 403, description: 'PlatformApiForbiddenError (owners and admins only) or PlatformAppsUnavailableError' };
const conflict = { status: 409, description: 'PlatformApiConflictError: already installed, no published version, or another version to approve' };

export function registerInstallClientRoutes(api: ClientApi, installs: InstallsService): void {
  api.route({
    operationId: 'getAppConsent', method: 'get', path: '/apps/{appId}/consent', tag: 'installs', auth: 'member',
    summary: 'The consent screen of the app\'s published version: scopes with what each allows, the install form',
    status: 200, response: ConsentResponse, errors: [conflict],
  }, async ({ auth, params }) => ({ consent: await installs.consentForApp(auth, params.appId) }));

  api.route({
    operationId: 'installApp', method: 'post', path: '/apps/{appId}/installs', tag: 'installs', auth: 'member',
    summary: 'Install the app in your workspace, approving the version and scopes of its consent screen (owners and admins)',
    description: 'The config is validated against the version\'s `installConfig`; problems answer 400 with `issues` located under `config`.',
    body: InstallBody, status: 201, response: InstallResponse, errors: [forbidden, conflict],
  }, async ({ auth, params, body }) => ({ install: await installs.install(auth, params.appId, body) }));

  api.route({
    operationId: 'listInstalls', method: 'get', path: '/installs', tag: 'installs', auth: 'member',
    summary: 'Apps installed in your workspace', status: 200, response: InstallList,
  }, async ({ auth }) => ({ items: await installs.list(auth) }));

  api.route({
    operationId: 'getInstall', method: 'get', path: '/installs/{installId}', tag: 'installs', auth: 'member',
    summary: 'One install', status: 200, response: InstallResponse,
  }, async ({ auth, params }) => ({ install: await installs.get(auth, params.installId) }));

  api.route({
    operationId: 'getInstallConsent', method: 'get', path: '/installs/{installId}/consent', tag: 'installs', auth: 'member',
    summary: 'The consent screen of the version waiting for approval, with what it adds', status: 200, response: ConsentResponse, errors: [conflict],
  }, async ({ auth, params }) => ({ consent: await installs.consentForInstall(auth, params.installId) }));

  api.route({
    operationId: 'approveInstallVersion', method: 'post', path: '/installs/{installId}/approve', tag: 'installs', auth: 'member',
    summary: 'Approve the pending version: the install moves to it and to its scopes (owners and admins)',
    body: ApproveBody, status: 200, response: InstallResponse, errors: [forbidden, conflict],
  }, async ({ auth, params, body }) => ({ install: await installs.approve(auth, params.installId, body) }));

  api.route({
    operationId: 'updateInstallConfig', method: 'put', path: '/installs/{installId}/config', tag: 'installs', auth: 'member',
    summary: 'Replace the install config (secret fields left out keep their value; owners and admins)',
    body: ConfigBody, status: 200, response: InstallResponse, errors: [forbidden],
  }, async ({ auth, params, body }) => ({ install: await installs.updateConfig(auth, params.installId, body.config) }));

  api.route({
    operationId: 'uninstallApp', method: 'delete', path: '/installs/{installId}', tag: 'installs', auth: 'member',
    summary: 'Uninstall (owners and admins): the install\'s tokens stop working at once', status: 204, errors: [forbidden],
  }, async ({ auth, params }) => installs.uninstall(auth, params.installId));

  api.route({
    operationId: 'suspendInstall', method: 'post', path: '/installs/{installId}/suspend', tag: 'installs', auth: 'operator',
    summary: 'Suspend an install (operator): its tokens answer PlatformAppInstallRevokedError until resumed', status: 200, response: InstallResponse,
  }, async ({ params }) => ({ install: await installs.setSuspended(params.installId, true) }));

  api.route({
    operationId: 'resumeInstall', method: 'post', path: '/installs/{installId}/resume', tag: 'installs', auth: 'operator',
    summary: 'Resume a suspended install (operator)', status: 200, response: InstallResponse,
  }, async ({ params }) => ({ install: await installs.setSuspended(params.installId, false) }));
}
