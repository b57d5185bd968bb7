/**
 * @module apps/usage/client-routes
 * `/client/v1`: usage for workspace owners and admins. `GET /apps/{appId}/usage`: one app's usage
 * by the installs of this workspace (the admin's view of an app, whoever wrote it);
 * `GET /operator/usage`: every app of the workspace summed, and each app's totals (the operator page).
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { usageCsv } from './csv.ts';
import { OperatorUsageQuerySchema, OperatorUsageSchema, UsageQuerySchema, UsageSeriesSchema } from './schemas.ts';
import type { UsageService } from './service.ts';
import { USAGE_DESCRIPTION } from './v0-routes.ts';

const forbidden = { status: 403, description: 'PlatformApiForbiddenError: only workspace owners and admins' };

export function registerUsageClientRoutes(api: ClientApi, usage: UsageService): void {
  api.route({
    operationId: 'getWorkspaceAppUsage', method: 'get', path: '/apps/{appId}/usage', tag: 'installs', auth: 'member',
    summary: 'An app\'s usage by this workspace\'s installs, per minute or per hour',
    description: USAGE_DESCRIPTION,
    query: UsageQuerySchema, status: 200, response: UsageSeriesSchema, produces: 'text/csv',
    errors: [forbidden, { status: 404, description: 'PlatformAppNotFoundError, or PlatformAppInstallNotFoundError: `install` is not an install of this app in the workspace' }],
  }, async ({ c, auth, params, query }) => {
    const series = await usage.forWorkspaceApp(auth, params.appId, query);
    if (query.format === 'json') return series;
    return c.body(usageCsv(series.points), 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${series.appId}-usage-${series.step}.csv"` }) as never;
  });

  api.route({
    operationId: 'getOperatorUsage', method: 'get', path: '/operator/usage', tag: 'apps', auth: 'member',
    summary: 'Usage of every app of the workspace over time, summed, with each app\'s totals',
    description: USAGE_DESCRIPTION,
    query: OperatorUsageQuerySchema, status: 200, response: OperatorUsageSchema, errors: [forbidden],
  }, async ({ auth, query }) => usage.forOperator(auth, query));
}
