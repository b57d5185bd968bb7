/**
 * @module core/http/client-api
 * The workspace client API under `/client/v1`: its credential schemes and the API builder it is
 * made with (which also serves `/client/v1/openapi.json`). Route files take a `ClientApi`; the one
 * list of its routes is wiring/client-routes.ts.
 */
import type { Actor } from '../auth/actor.ts';
import type { OperatorAccess } from './operator-auth.ts';
import { createApi, type Api, type AuthScheme } from './api.ts';

// A type alias (not an interface) so it fits `Record<string, AuthScheme<unknown>>` without an index
// signature, and a misspelt `auth` on a route stays a type error.
export type ClientAuth = {
  member: AuthScheme<Actor>;
  operator: AuthScheme<OperatorAccess>;
};

export type ClientApi = Api<ClientAuth>;

export const CLIENT_API_BASE = '/client/v1';

/**
 * @example
 * const api = createClientApi({ member: memberAuthScheme(apiKeys), operator: operatorAuthScheme(config) });
 * registerClientRoutes(api, parts);
 * app.route(api.basePath, api.router);
 */
export function createClientApi(auth: ClientAuth): ClientApi {
  return createApi<ClientAuth>({
    basePath: CLIENT_API_BASE,
    title: 'Workspace client API',
    version: '1',
    description: 'Workspaces, members, circles, conversations and messages. Authenticate with a member API key: `authorization: Bearer platkey_…`.',
    auth,
  });
}
