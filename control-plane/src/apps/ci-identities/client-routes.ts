/**
 * @module apps/ci-identities/client-routes
 * `/client/v1/apps/{appId}/ci-identities`: the app's owner or a workspace owner or admin manages
 * the CI identities the app trusts.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { CiIdentityList, CreateCiIdentityBody, CreateCiIdentityResponse } from './schemas.ts';
import type { CiIdentitiesService } from './service.ts';

export function registerCiIdentityClientRoutes(api: ClientApi, ciIdentities: CiIdentitiesService): void {
  api.route({
    operationId: 'createCiIdentity', method: 'post', path: '/apps/{appId}/ci-identities', tag: 'ci-identities', auth: 'member',
    summary: 'Trust a CI identity: its OIDC tokens exchange for deploy tokens of this app',
    body: CreateCiIdentityBody, status: 201, response: CreateCiIdentityResponse,
    errors: [{ status: 409, description: 'PlatformApiConflictError: the app already trusts the most CI identities allowed' }],
  }, async ({ auth, params, body }) => ({ identity: await ciIdentities.create(auth, params.appId, body) }));

  api.route({
    operationId: 'listCiIdentities', method: 'get', path: '/apps/{appId}/ci-identities', tag: 'ci-identities', auth: 'member',
    summary: 'List the CI identities the app trusts', status: 200, response: CiIdentityList,
  }, async ({ auth, params }) => ({ items: await ciIdentities.list(auth, params.appId) }));

  api.route({
    operationId: 'deleteCiIdentity', method: 'delete', path: '/apps/{appId}/ci-identities/{identityId}', tag: 'ci-identities', auth: 'member',
    summary: 'Stop trusting a CI identity (deploy tokens already issued run out within 15 minutes)', status: 204,
  }, async ({ auth, params }) => {
    await ciIdentities.remove(auth, params.appId, params.identityId);
  });
}
