/**
 * @module apps/ci-identities/v0-routes
 * `POST /v0/apps/{app_id}/deploy-tokens`: the CI token exchange (ours; the spec leaves its shape
 * open). No credential but the OIDC identity token in the body.
 */
import type { V0Api } from '../../core/http/v0-api.ts';
import { DeployTokenRequest, DeployTokenResponse } from './schemas.ts';
import type { CiIdentitiesService } from './service.ts';

export function registerCiIdentityV0Routes(api: V0Api, ciIdentities: CiIdentitiesService): void {
  api.route({
    operationId: 'exchangeCiIdentityToken', method: 'post', path: '/apps/{app_id}/deploy-tokens', tag: 'credentials', auth: 'none',
    summary: 'Exchange a CI\'s OIDC identity token for a deploy token (15 minutes, this app)',
    description: 'The token\'s issuer and audience must equal, and its subject match, one of the app\'s trusted CI identities '
      + '(client API). Its signature is checked against the issuer\'s JWKS.',
    body: DeployTokenRequest, maxBytes: 32 * 1024, status: 201, response: DeployTokenResponse,
    errors: [
      { status: 401, description: 'PlatformAppTokenInvalidError: the identity token is unknown, invalid, expired or matches no trusted identity' },
      { status: 403, description: 'PlatformAppDeployTargetForbiddenError: a preview-only identity asked for production' },
    ],
  }, async ({ params, body }) => ciIdentities.exchange(params.app_id, body.identityToken, body.target));
}
