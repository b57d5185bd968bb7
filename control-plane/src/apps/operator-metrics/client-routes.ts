/**
 * @module apps/operator-metrics/client-routes
 * `GET /client/v1/operator/apps-metrics`: each app's figures from the processes' metrics, for
 * workspace owners and admins (the console's operator page reads it).
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { OperatorMetricsSchema } from './schemas.ts';
import type { OperatorMetricsService } from './service.ts';

export function registerOperatorMetricsClientRoutes(api: ClientApi, operator: OperatorMetricsService): void {
  api.route({
    operationId: 'getAppsMetrics', method: 'get', path: '/operator/apps-metrics', tag: 'apps', auth: 'member',
    summary: 'Each app of the workspace: guest CPU p50/p99, requests by outcome, egress and blocked egress by host, cold starts, quarantines, lifecycle delivery outcomes; worker restarts per runtime node',
    description: 'Counters since each process started, summed over the runtime nodes; a node that does not answer is listed with `reachable: false`. Workspace owners and admins only.',
    status: 200, response: OperatorMetricsSchema,
    errors: [{ status: 403, description: 'PlatformApiForbiddenError: only workspace owners and admins' }],
  }, async ({ auth }) => operator.appsMetrics(auth));
}
