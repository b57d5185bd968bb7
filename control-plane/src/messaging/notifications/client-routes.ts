/**
 * @module messaging/notifications/client-routes
 * The calling member's inbox: `GET /client/v1/notifications` (newest first, in pages, with the
 * unread count), `POST /client/v1/notifications/{notificationId}/read` (one) and
 * `POST /client/v1/notifications/read` (`{ upTo }`: it and everything older).
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { InboxPage, MarkAllReadRequest, MarkAllReadResponse, MarkReadResponse } from './schemas.ts';
import type { NotificationsService } from './service.ts';

export function registerNotificationClientRoutes(api: ClientApi, notifications: NotificationsService): void {
  api.route({
    operationId: 'listNotifications', method: 'get', path: '/notifications', tag: 'notifications', auth: 'member',
    summary: 'Your inbox: notifications apps sent you, newest first',
    query: PageQuery, status: 200, response: InboxPage,
  }, async ({ auth, query }) => notifications.inbox(auth, query));

  api.route({
    operationId: 'markNotificationRead', method: 'post', path: '/notifications/{notificationId}/read', tag: 'notifications', auth: 'member',
    summary: 'Mark one of your notifications read (again: it keeps the first time)',
    status: 200, response: MarkReadResponse,
    errors: [{ status: 404, description: 'PlatformApiNotFoundError (path `notificationId`): no notification of yours has that id' }],
  }, async ({ auth, params }) => notifications.markRead(auth, params.notificationId));

  api.route({
    operationId: 'markNotificationsRead', method: 'post', path: '/notifications/read', tag: 'notifications', auth: 'member',
    summary: 'Mark read the notification `upTo` and every older one of yours',
    description: 'Send the newest notification you have seen: notifications that arrived after it stay unread.',
    body: MarkAllReadRequest, status: 200, response: MarkAllReadResponse,
    errors: [{ status: 404, description: 'PlatformApiNotFoundError (path `upTo`): no notification of yours has that id' }],
  }, async ({ auth, body }) => notifications.markReadUpTo(auth, body));
}
