/**
 * @module messaging/search/v0-routes
 * `PUT` and `DELETE /v0/search/objects` with the paths and shapes of `API_ROUTES`: an install adds,
 * updates and removes its own search objects (install token with `search:write`).
 */
import { API_ROUTES } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { SearchService } from './service.ts';

const R = API_ROUTES;
// 8,000 characters of body at up to 16 bytes each, plus the short fields and 50 circle ids; more
// is refused unread (docs/decisions/search.md).
const PUT_BODY_BYTES = 192 * 1024;

const scope = { status: 403, description: 'PlatformAppScopeMissingError (`search:write`), PlatformAppInstallRevokedError' };

export function registerSearchV0Routes(api: V0Api, search: SearchService): void {
  api.route({
    operationId: 'putSearchObject', method: 'put', path: '/search/objects', tag: 'search', auth: 'install', status: 200,
    summary: 'Add or update one of the install\'s search objects',
    description: 'Scope `search:write`. `kind` must be a searchable reference kind of the installed version; `visibility` is `workspace` '
      + 'or `{ circleIds }` (1 to 50 circles, each within reach). An upsert whose `updatedAt` is older than the stored object\'s is not '
      + 'applied: the answer is the stored object with `applied: false`. Members find the object through the client API\'s search.',
    body: R.searchObjectPut.body, maxBytes: PUT_BODY_BYTES, response: R.searchObjectPut.response,
    errors: [
      scope,
      { status: 404, description: 'PlatformAppCircleNotFoundError: circles not in the workspace or out of reach (`circleIds` lists them)' },
      { status: 422, description: 'PlatformAppReferenceKindUnknownError (no such kind in the installed version), PlatformAppReferenceKindNotSearchableError' },
    ],
  }, async ({ auth, body }) => search.put(auth, body));

  api.route({
    operationId: 'deleteSearchObject', method: 'delete', path: '/search/objects', tag: 'search', auth: 'install', status: 200,
    summary: 'Remove one of the install\'s search objects',
    description: 'Scope `search:write`. Body `{ kind, externalId }`. Idempotent: removing an object that is not stored answers `deleted: false`.',
    body: R.searchObjectDelete.body, response: R.searchObjectDelete.response, errors: [scope],
  }, async ({ auth, body }) => search.remove(auth, body));
}
