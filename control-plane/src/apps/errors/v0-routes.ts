/**
 * @module apps/errors/v0-routes
 * `GET /v0/apps/{app_id}/errors`: the app's error groups, last seen first, a page at a time,
 * filtered by version and level. `GET /v0/apps/{app_id}/errors/{group_id}`: one group with its
 * versions and newest examples (log lines while they are kept, delivery ids). Credentials as for
 * logs: tooling access to the app; preview-only credentials see preview versions' occurrences.
 */
import type { V0Api } from '../../core/http/v0-api.ts';
import { ErrorGroupDetailSchema, ErrorGroupPageSchema, ErrorGroupQuerySchema } from './schemas.ts';
import type { ErrorsService } from './service.ts';

const notFound = { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it' };

export function registerAppErrorV0Routes(api: V0Api, errors: ErrorsService): void {
  api.route({
    operationId: 'listAppErrorGroups', method: 'get', path: '/apps/{app_id}/errors', tag: 'tooling', auth: 'tooling',
    summary: 'The app\'s errors grouped by fingerprint, last seen first (ours)',
    description: 'A group is one kind of error: the same name, the same message with ids, numbers, addresses and digests masked, and the '
      + 'same innermost frame in the app\'s source (file and function). Hosted apps\' error and limit log lines (uncaught errors, thrown '
      + 'routes, logged Errors, load failures, CPU and memory stops, deadlines, blocked egress) and every app\'s failed delivery attempts '
      + 'are grouped. Counts are exact, per version; `versions[0]` is the version a group is new on. Groups unseen for '
      + 'ERROR_GROUP_RETENTION_DAYS (30 by default) are removed. Filters: `version`, `level` (error, limit, delivery).',
    query: ErrorGroupQuerySchema, status: 200, response: ErrorGroupPageSchema, errors: [notFound],
  }, async ({ auth, params, query }) => errors.list(auth, params.app_id, query));

  api.route({
    operationId: 'getAppErrorGroup', method: 'get', path: '/apps/{app_id}/errors/{group_id}', tag: 'tooling', auth: 'tooling',
    summary: 'One error group with its versions and newest examples (ours)',
    description: 'Examples link to their log lines while those are kept (APP_LOG_RETENTION_HOURS) and name their delivery.',
    status: 200, response: ErrorGroupDetailSchema,
    errors: [{ status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it; PlatformApiNotFoundError: no such group' }],
  }, async ({ auth, params }) => errors.get(auth, params.app_id, params.group_id));
}
