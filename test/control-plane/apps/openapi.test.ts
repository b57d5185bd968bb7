/**
 * The apps routes are documented: the tooling paths in `/v0/openapi.json` (environment variables
 * and the upload included, since the spec leaves their paths to us) and the developer area and
 * installs in `/client/v1/openapi.json`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack.stop());

const operations = (doc: { paths: Record<string, Record<string, { operationId: string }>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`));

describe('OpenAPI documents of the apps routes', () => {
  it('lists the tooling endpoints under /v0', async () => {
    const doc = (await (await stack.fetch('/v0/openapi.json')).json()) as any;
    expect(operations(doc)).toEqual(expect.arrayContaining([
      'PUT /apps/dev syncDevApp',
      'PUT /apps/{app_id}/manifest syncManifest',
      'GET /apps/{app_id}/manifest getManifest',
      'GET /apps/{app_id}/versions/{version} getVersion',
      'POST /apps/{app_id}/versions uploadVersion',
      'POST /apps/check/bundles checkBundle',
      'GET /apps/{app_id}/env/{target} listEnvVars',
      'PUT /apps/{app_id}/env/{target}/{key} setEnvVar',
      'DELETE /apps/{app_id}/env/{target}/{key} deleteEnvVar',
    ]));
    const upload = doc.paths['/apps/{app_id}/versions'].post;
    expect(upload.parameters).toContainEqual(expect.objectContaining({ name: 'target', in: 'query', required: true }));
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '413', '422']));
    expect(doc.components.schemas.AppVersion.properties).toHaveProperty('manifestSha256');
  });

  it('lists the developer area and installs under /client/v1', async () => {
    const doc = (await (await stack.fetch('/client/v1/openapi.json')).json()) as any;
    expect(operations(doc)).toEqual(expect.arrayContaining([
      'POST /apps createApp', 'GET /apps listApps', 'GET /apps/{appId} getApp', 'GET /apps/{appId}/credentials getAppCredentials',
      'POST /apps/{appId}/signing-secret/rotate rotateSigningSecret', 'POST /apps/{appId}/client-secret/rotate rotateClientSecret',
      'GET /app-settings getAppSettings', 'PUT /app-settings updateAppSettings',
      'POST /apps/{appId}/domains addAppDomain', 'GET /apps/{appId}/domains listAppDomains',
      'POST /apps/{appId}/domains/{domain}/verify verifyAppDomain', 'DELETE /apps/{appId}/domains/{domain} removeAppDomain',
      'GET /apps/{appId}/consent getAppConsent', 'POST /apps/{appId}/installs installApp', 'GET /installs listInstalls',
      'GET /installs/{installId} getInstall', 'GET /installs/{installId}/consent getInstallConsent',
      'POST /installs/{installId}/approve approveInstallVersion', 'PUT /installs/{installId}/config updateInstallConfig',
      'DELETE /installs/{installId} uninstallApp', 'POST /installs/{installId}/suspend suspendInstall', 'POST /installs/{installId}/resume resumeInstall',
    ]));
  });
});
