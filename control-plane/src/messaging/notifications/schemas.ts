/**
 * @module messaging/notifications/schemas
 * The member's side of notifications in the client API (ours: the spec names only `memberId`,
 * `text` and a link). The app's side is sandbox-lib's `NotificationRequestSchema`.
 */
import { z } from 'zod';
import { Id, Timestamp, page } from '../../core/http/common.ts';

/** The app a notification or memory is credited to (its name as it is now). */
export const CreditedApp = z.object({ id: Id, name: z.string() }).meta({ id: 'CreditedApp' });

export const InboxNotification = z
  .object({
    id: Id,
    text: z.string(),
    url: z.string().nullable().describe('The `https://` link the app gave, if any'),
    blockId: Id.nullable().describe('Set when a block action sent it (`notify`): the notification links to that block'),
    app: CreditedApp.nullable().describe('The app that sent it; null once the app is deleted'),
    createdAt: Timestamp,
    readAt: Timestamp.nullable().describe('When you marked it read; null while unread'),
  })
  .meta({ id: 'InboxNotification' });
export type InboxNotification = z.output<typeof InboxNotification>;

const UnreadCount = z.int().min(0).describe('How many of your notifications are unread (all of them, not only this page\'s)');

export const InboxPage = page(InboxNotification).extend({ unreadCount: UnreadCount });

export const MarkReadResponse = z.object({ notification: InboxNotification, unreadCount: UnreadCount });

export const MarkAllReadRequest = z.strictObject({
  upTo: Id.describe('The newest notification the member has seen (the first item of the inbox they read): it and every older one are marked read; newer ones stay unread'),
});

export const MarkAllReadResponse = z.object({
  marked: z.int().min(0).describe('How many notifications this call marked read (already read ones are not counted)'),
  unreadCount: UnreadCount,
});
