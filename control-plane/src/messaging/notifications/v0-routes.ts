/**
 * @module messaging/notifications/v0-routes
 * `POST /v0/notifications` with the shapes of `API_ROUTES.notification`: `{ memberId, text ≤ 280,
 * url? (https) }` → `201 { id }`.
 */
import { API_ROUTES, LIMITS } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { NotificationsService } from './service.ts';

const R = API_ROUTES.notification;

export function registerNotificationV0Routes(api: V0Api, notifications: NotificationsService): void {
  api.route({
    operationId: 'sendNotification', method: 'post', path: '/notifications', tag: 'notifications', auth: 'install', status: R.status,
    summary: 'Send an inbox notification to a member, credited to the app',
    description: `Scope \`${R.scope}\`. \`text\` 1 to ${LIMITS.endpoints.notificationTextMax} characters; \`url\` an optional \`https://\` link. `
      + 'A workspace install may notify any member of its workspace; a development install only its developer. '
      + `At most ${LIMITS.rateLimits.notificationsPerMinutePerApp} a minute per app, shared with \`notify\` of action results.`,
    body: R.body, response: R.response,
    errors: [
      { status: 403, description: 'PlatformAppScopeMissingError (`notifications:write`), PlatformAppInstallRevokedError' },
      { status: 404, description: 'PlatformApiNotFoundError (path `memberId`): no such member, another workspace\'s, or one a development install may not notify' },
      { status: 429, description: 'PlatformApiRateLimitExceededError: over 60 a minute for the app (see `retry-after`)' },
    ],
  }, async ({ auth, body }) => notifications.send(auth, body));
}
