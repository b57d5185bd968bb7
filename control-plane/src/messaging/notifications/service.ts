/**
 * @module messaging/notifications/service
 * `POST /v0/notifications`: one inbox notification to one member, credited to the app, and the
 * member's inbox (`GET /client/v1/notifications`). Checks in order: the scope
 * (`notifications:write`), the recipient (messaging/notifications/recipients.ts; outside it answers 404 as
 * if absent), then the limit of 60 a minute per app, shared with `notify` of action results (one
 * budget under messaging/notifications/notify.ts's key). Refused requests are not counted and write nothing.
 */
import { LIMITS, PlatformError, type NotificationRequest } from '@platform/sandbox-lib';
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
import { insertNotification, listInbox, recipientFacts, type NotificationRow } from './store.ts';

export interface NotificationsService {
  send(caller: InstallCaller, body: NotificationRequest): Promise<{ id: string }>;
  inbox(actor: Actor, page: PageQuery): Promise<{ items: InboxNotification[]; nextCursor: string | null }>;
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
});

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
      const rows = await listInbox(deps.db, actor.memberId, decodeSeqCursor(page.cursor), page.limit);
      return toSeqPage(rows, page.limit, view);
    },
  };
}
