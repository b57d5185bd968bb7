/**
 * @module core/http/v0-api
 * The app API under `/v0` (app endpoints and tooling), built with the same route builder as the
 * client API and serving its OpenAPI document at `/v0/openapi.json`. Routes pick a credential
 * scheme from core/http/v0-auth.ts and receive a `Caller`; every feature registers its routes in
 * wiring/v0-routes.ts.
 */
import { createApi, type Api } from './api.ts';
import { v0AuthSchemes, type CallerResolver, type V0Auth } from './v0-auth.ts';

export type V0Api = Api<V0Auth>;

export const V0_BASE = '/v0';

/**
 * @example
 * const v0 = createV0Api({ resolver });
 * registerV0Routes(v0, deps);
 * app.route(v0.basePath, v0.router);
 */
export function createV0Api(deps: { resolver: CallerResolver }): V0Api {
  return createApi<V0Auth>({
    basePath: V0_BASE,
    title: 'Platform app API',
    version: '0',
    description: 'Endpoints apps and their tooling call. Credentials (spec, Authentication): install token `platapp_…`, '
      + 'interaction token `platint_…`, client credentials (HTTP Basic), member API key `platkey_…`, deploy token `platdep_…`, '
      + 'agent builder token `platagt_…`, all in the `authorization` header.',
    auth: v0AuthSchemes(deps.resolver),
  });
}
