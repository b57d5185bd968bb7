/**
 * @module messaging/notifications/client-routes
 * `GET /client/v1/notifications`: the calling member's inbox, newest first, in pages.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { InboxPage } from './schemas.ts';
import type { NotificationsService } from './service.ts';

export function registerNotificationClientRoutes(api: ClientApi, notifications: NotificationsService): void {
  api.route({
    operationId: 'listNotifications', method: 'get', path: '/notifications', tag: 'notifications', auth: 'member',
    summary: 'Your inbox: notifications apps sent you, newest first',
    query: PageQuery, status: 200, response: InboxPage,
  }, async ({ auth, query }) => notifications.inbox(auth, query));
}
