/**
 * @module messaging/notifications/notify
 * `notify` of an action result: up to 20 inbox notifications, each linking to the block (a reference
 * card's block: to its link, `url`). It needs the install's `notifications:write`, and shares the notifications endpoint's limit of 60 a
 * minute per app (the same rate-limit key, `notifications:{appId}`; each notification counts).
 * The action's other effects stand whatever happens here: without the scope no notification is
 * sent, over the limit the rest are dropped, and a member the install may not notify is skipped
 * (the endpoint's recipient rule, messaging/notifications/recipients.ts: a member of the workspace, and for a
 * development install only its developer). What was dropped and why is logged for the developer.
 */
import type { Db } from '../../core/db/db.ts';
import type { Kv } from '../../core/kv/kv.ts';
import type { Logger } from '../../core/log/logger.ts';
import { rateLimit, RateLimitExceededError } from '../../core/rate-limit/rate-limit.ts';
import { LIMITS } from '@platform/sdk';
import { newNotificationId } from './ids.ts';
import { mayNotify } from './recipients.ts';

export interface NotifySource {
  workspaceId: string;
  appId: string;
  installId: string;
  installKind: 'workspace' | 'dev';
  /** The block the notifications link to; null for a reference card's block (its link URL is given instead). */
  blockId: string | null;
  /** The link of each notification, when it links to no block. */
  url?: string | null;
  scopes: readonly string[];
}

export interface NotifyOutcome {
  sent: number;
  dropped: number;
  reason: 'scope' | 'rate-limit' | 'not-members' | null;
}

/** The key the notifications endpoint counts under too. */
export const notificationsRateKey = (appId: string): string => `notifications:${appId}`;

/**
 * @example
 * await sendNotifications({ db, kv, logger, now }, source, result.notify);
 */
export async function sendNotifications(
  deps: { db: Db; kv: Kv; logger: Logger; now: Date },
  source: NotifySource,
  items: ReadonlyArray<{ memberId: string; text: string }>,
): Promise<NotifyOutcome> {
  if (items.length === 0) return { sent: 0, dropped: 0, reason: null };
  const log = deps.logger.child({ appId: source.appId, installId: source.installId, blockId: source.blockId });
  if (!source.scopes.includes('notifications:write')) {
    log.warn({ dropped: items.length }, 'notify ignored: the install was not granted notifications:write');
    return { sent: 0, dropped: items.length, reason: 'scope' };
  }
  const ids = [...new Set(items.map((i) => i.memberId))];
  const { rows } = await deps.db.query<{ id: string; owner_member_id: string }>(
    'select m.id, a.owner_member_id from members m join apps a on a.id = $3 where m.workspace_id = $1 and m.id = any($2::text[])',
    [source.workspaceId, ids, source.appId]);
  const members = new Set(rows.filter((r) => mayNotify({
    installKind: source.installKind, installWorkspaceId: source.workspaceId, memberWorkspaceId: source.workspaceId, memberId: r.id, developerId: r.owner_member_id,
  })).map((r) => r.id));
  const wanted = items.filter((i) => members.has(i.memberId));
  const allowed: typeof wanted = [];
  let limited = false;
  for (const item of wanted) {
    try {
      await rateLimit(deps.kv, { key: notificationsRateKey(source.appId), limit: LIMITS.rateLimits.notificationsPerMinutePerApp, windowMs: 60_000 });
      allowed.push(item);
    } catch (err) {
      if (!(err instanceof RateLimitExceededError)) throw err;
      limited = true;
      break;
    }
  }
  if (allowed.length > 0) {
    await deps.db.query(
      `insert into notifications (id, workspace_id, member_id, app_id, install_id, text, url, block_id, created_at)
       select t.id, $1, t.member, $2, $3, t.txt, $9, $4, $5 from unnest($6::text[], $7::text[], $8::text[]) as t(id, member, txt)`,
      [source.workspaceId, source.appId, source.installId, source.blockId, deps.now,
        allowed.map(() => newNotificationId()), allowed.map((i) => i.memberId), allowed.map((i) => i.text), source.url ?? null]);
  }
  const dropped = items.length - allowed.length;
  const reason = limited ? 'rate-limit' : dropped > 0 ? 'not-members' : null;
  if (dropped > 0) log.warn({ dropped, reason }, 'some notifications of an action result were not sent');
  return { sent: allowed.length, dropped, reason };
}
