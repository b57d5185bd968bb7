/**
 * @module client/lean
 * `createLeanPlatformClient`: the same `/v0` client without zod, the one handlers get as `ctx.api`.
 * It sends what it is given to the route's method and path (`ROUTE_PATHS`) and answers the JSON
 * the service wrote. Nothing is checked before sending: the service checks every body with the
 * same strict schemas and answers the same `PlatformApiInvalidRequestError` (with `issues`), only
 * from its side (`local` is false). Answers are the service's JSON as written, not re-read with the
 * lenient response schemas. That is what keeps zod out of an app bundle that does not use it;
 * `createPlatformClient` checks both ways for code that wants it.
 */
import { ROUTE_PATHS } from '../api/route-paths.ts';
import { transportOf, type PlatformClientOptions } from './client.ts';
import { clientMethods, type PlatformClient, type RouteCaller } from './methods.ts';
import { send } from './transport.ts';

/**
 * Creates a `/v0` client that checks nothing locally.
 * @example
 * const api = createLeanPlatformClient({ baseUrl: env.PLATFORM_API_URL });
 * await api.blocks.update(blockId, { state: { open: false } });
 */
export function createLeanPlatformClient(options: PlatformClientOptions): PlatformClient {
  const transport = transportOf(options);
  const call = (async (name, input, o) => {
    const route = ROUTE_PATHS[name];
    // Every route but a GET takes a JSON body (an empty one when the caller gives none), as in API_ROUTES.
    const body = route.method === 'GET' ? undefined : input.body ?? {};
    return (await send(transport, route, { params: input.params, query: input.query as Record<string, unknown> | undefined, body }, o)).json;
  }) as RouteCaller;
  return clientMethods(call);
}
