/**
 * @module apps/usage/v0-routes
 * `GET /v0/apps/{app_id}/usage`: the app's usage over a window, per minute or per hour, as JSON
 * or CSV (`format=csv`). Credentials as for logs: tooling access to the app. Usage holds no
 * member's data, so preview-only credentials read it whole.
 */
import type { V0Api } from '../../core/http/v0-api.ts';
import { usageCsv } from './csv.ts';
import { UsageQuerySchema, UsageSeriesSchema } from './schemas.ts';
import type { UsageService } from './service.ts';

export const USAGE_DESCRIPTION = 'Counted exactly from the processes\' own figures (not sampled, not from log lines): hosted requests by outcome, '
  + 'delivery attempts by result, the guest\'s CPU (µs), outbound calls and bytes, storage bytes (sampled each minute) and operations, queue '
  + 'messages sent and delivered. Per minute for 24 hours, per hour for 90 days. A window longer than its step allows, one that starts before '
  + 'the step\'s rows are kept, or one whose `from` is after `to` is `PlatformApiInvalidRequestError` with `path` [`from`] and a `code` '
  + '(window_too_long, over_retention, window_reversed; `last` with `from` or `to`: window_conflict, path [`last`]). `format=csv` answers `text/csv`, one row per bucket.';

export function registerAppUsageV0Routes(api: V0Api, usage: UsageService): void {
  api.route({
    operationId: 'getAppUsage', method: 'get', path: '/apps/{app_id}/usage', tag: 'tooling', auth: 'tooling',
    summary: 'The app\'s usage over time, per minute or per hour, every install or one (ours)',
    description: USAGE_DESCRIPTION,
    query: UsageQuerySchema, status: 200, response: UsageSeriesSchema, produces: 'text/csv',
    errors: [{ status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it' }],
  }, async ({ c, auth, params, query }) => {
    const series = await usage.forApp(auth, params.app_id, query);
    if (query.format === 'json') return series;
    // The CSV form is a Response of its own (the route's `produces`); the JSON one passes its schema.
    return c.body(usageCsv(series.points), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${series.appId}-usage-${series.step}.csv"`,
    }) as never;
  });
}
