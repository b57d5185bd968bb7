/**
 * @module messaging/notifications/service
 * `POST /v0/notifications`: one inbox notification to one member, credited to the app, and the
 * member's inbox (`GET /client/v1/notifications`, with the unread count) and marking it read (one, or
 * everything up to the newest one the member saw). Checks in order: the scope
 * (`notifications:write`), the recipient (messaging/notifications/recipients.ts; outside it answers 404 as
 * if absent), then the limit of 60 a minute per app, shared with `notify` of action results (one
 * budget under messaging/notifications/notify.ts's key). Refused requests are not counted and write nothing.
 */
import { LIMITS, PlatformError, type NotificationRequest } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { newNotificationId } from './ids.ts';
import type { PageQuery } from '../../core/http/common.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { requireScope } from '../../apps/guards/index.ts';
import { notificationsRateKey } from './notify.ts';
import type { Kv } from '../../core/kv/kv.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';
import { decodeSeqCursor, toSeqPage } from './page.ts';
import { mayNotify } from './recipients.ts';
import type { InboxNotification } from './schemas.ts';
import { insertNotification, listInbox, markRead, markReadUpTo, recipientFacts, unreadCount, type NotificationRow } from './store.ts';

export interface NotificationsService {
  send(caller: InstallCaller, body: NotificationRequest): Promise<{ id: string }>;
  inbox(actor: Actor, page: PageQuery): Promise<{ items: InboxNotification[]; nextCursor: string | null; unreadCount: number }>;
  markRead(actor: Actor, notificationId: string): Promise<{ notification: InboxNotification; unreadCount: number }>;
  markReadUpTo(actor: Actor, body: { upTo: string }): Promise<{ marked: number; unreadCount: number }>;
}

export interface NotificationsServiceDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
}

function memberNotFound(): PlatformError {
  return new PlatformError('PlatformApiNotFoundError', 'No such member in the workspace this app can notify', { path: ['memberId'] });
}

const view = (row: NotificationRow): InboxNotification => ({
  id: row.id,
  text: row.text,
  url: row.url,
  blockId: row.block_id,
  app: row.app_id === null || row.app_name === null ? null : { id: row.app_id, name: row.app_name },
  createdAt: row.created_at.toISOString(),
  readAt: row.read_at === null ? null : row.read_at.toISOString(),
});

// Another member's notification answers as one that does not exist.
const notificationNotFound = (path: string): PlatformError => new PlatformError('PlatformApiNotFoundError', 'No notification of yours has that id', { path: [path] });

/**
 * @example
 * const notifications = createNotificationsService({ db, kv, clock });
 * await notifications.send(auth, { memberId: 'mem_…', text: 'Your report is ready', url: 'https://reports.example.com/42' });
 */
export function createNotificationsService(deps: NotificationsServiceDeps): NotificationsService {
  return {
    async send(caller, body) {
      requireScope(caller, 'notifications:write');
      const facts = await recipientFacts(deps.db, caller.appId, body.memberId);
      if (!mayNotify({ installKind: caller.installKind, installWorkspaceId: caller.workspaceId, memberId: body.memberId, ...facts })) throw memberNotFound();
      await rateLimit(deps.kv, {
        key: notificationsRateKey(caller.appId), limit: LIMITS.rateLimits.notificationsPerMinutePerApp, windowMs: 60_000,
        message: `Too many notifications: at most ${LIMITS.rateLimits.notificationsPerMinutePerApp} a minute per app, counting notify of action results`,
      });
      const id = newNotificationId();
      await insertNotification(deps.db, {
        id, workspaceId: caller.workspaceId, memberId: body.memberId, appId: caller.appId, installId: caller.installId,
        text: body.text, url: body.url ?? null, at: new Date(deps.clock.now()),
      });
      return { id };
    },

    async inbox(actor, page) {
      const [rows, unread] = await Promise.all([listInbox(deps.db, actor.memberId, decodeSeqCursor(page.cursor), page.limit), unreadCount(deps.db, actor.memberId)]);
      return { ...toSeqPage(rows, page.limit, view), unreadCount: unread };
    },

    async markRead(actor, notificationId) {
      const row = await markRead(deps.db, actor.memberId, notificationId, new Date(deps.clock.now()));
      if (row === undefined) throw notificationNotFound('notificationId');
      return { notification: view(row), unreadCount: await unreadCount(deps.db, actor.memberId) };
    },

    async markReadUpTo(actor, body) {
      const marked = await markReadUpTo(deps.db, actor.memberId, body.upTo, new Date(deps.clock.now()));
      if (marked === undefined) throw notificationNotFound('upTo');
      return { marked, unreadCount: await unreadCount(deps.db, actor.memberId) };
    },
  };
}
