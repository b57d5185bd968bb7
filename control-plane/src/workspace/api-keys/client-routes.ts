/**
 * @module workspace/api-keys/client-routes
 * `/api-keys`: a member manages their own keys.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { ApiKeyList, CreateApiKeyBody, CreateApiKeyResponse } from './schemas.ts';
import type { ApiKeysService } from './service.ts';

export function registerApiKeyClientRoutes(api: ClientApi, keys: ApiKeysService): void {
  api.route({
    operationId: 'createApiKey', method: 'post', path: '/api-keys', tag: 'api-keys', auth: 'member',
    summary: 'Create an API key for yourself (the key is shown once)',
    body: CreateApiKeyBody, status: 201, response: CreateApiKeyResponse,
  }, async ({ auth, body }) => keys.issue({ id: auth.memberId, workspaceId: auth.workspaceId }, body.name));

  api.route({
    operationId: 'listApiKeys', method: 'get', path: '/api-keys', tag: 'api-keys', auth: 'member',
    summary: 'List your API keys (without the keys themselves)', status: 200, response: ApiKeyList,
  }, async ({ auth }) => ({ items: await keys.list(auth) }));

  api.route({
    operationId: 'revokeApiKey', method: 'delete', path: '/api-keys/{keyId}', tag: 'api-keys', auth: 'member',
    summary: 'Revoke one of your API keys', status: 204,
  }, async ({ auth, params }) => {
    await keys.revoke(auth, params.keyId);
  });
}
