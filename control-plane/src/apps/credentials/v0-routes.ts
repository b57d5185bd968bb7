/**
 * @module apps/credentials/v0-routes
 * `POST /v0/apps/installs/{install_id}/access-tokens`: client credentials mint an install token.
 * `GET /v0/whoami` (ours): the caller behind any credential.
 */
import { AccessTokenRequestSchema, AccessTokenResponseSchema } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import { WhoamiResponse } from './schemas.ts';
import type { CredentialsService } from './service.ts';

export function registerCredentialV0Routes(api: V0Api, service: CredentialsService): void {
  api.route({
    operationId: 'createInstallAccessToken', method: 'post', path: '/apps/installs/{install_id}/access-tokens', tag: 'credentials',
    auth: 'client', summary: 'Mint an install token (one hour) with the app\'s client credentials',
    description: 'HTTP Basic `client_id:client_secret`. The body is an empty JSON object. `scopes` are the scopes the install\'s admin approved.',
    body: AccessTokenRequestSchema, status: 201, response: AccessTokenResponseSchema,
    errors: [{ status: 403, description: 'PlatformAppInstallRevokedError: the install was uninstalled or suspended' }],
  }, async ({ auth, params }) => service.mintForInstall(auth, params.install_id));

  api.route({
    operationId: 'whoami', method: 'get', path: '/whoami', tag: 'credentials', auth: 'any',
    summary: 'Who the credential in this request belongs to (any credential)',
    description: 'Answers what the service resolved the credential into: its kind and what it is bound to. Install tokens '
      + 'show the scopes approved now. A revoked install answers 403, an expired interaction token 401.',
    status: 200, response: WhoamiResponse,
    errors: [{ status: 403, description: 'PlatformAppInstallRevokedError: the install was uninstalled or suspended' }],
  }, async ({ auth }) => auth);
}
