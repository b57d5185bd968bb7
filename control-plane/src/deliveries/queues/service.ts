/**
 * @module deliveries/queues/service
 * `POST /v0/queue/messages` (ours, docs/decisions/queues.md): an install sends messages to its own
 * queue. Each becomes an outbox event of type `queue.message`, due after its delay, whose delivery
 * has the app's `maxAttempts` and every other outbox rule (backoff, `410` pause, one `webhook-id`,
 * dead letters on the Deliveries page, redelivery). A `key` sent within the dedupe window answers
 * the first message instead of sending again. Sends of one install are serialised by an advisory
 * lock, so the limits read and the writes agree.
 */
import { LIMITS, PlatformError, utf8Length, type QueueSendRequest } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newEventId } from '../../workspace/events/ids.ts';
import { checkQueueLimits } from './limits.ts';
import { insertMessages, installQueue, liveKeys, lockInstallQueue, queueUsage, type MessageRow } from './store.ts';

const Q = LIMITS.queues;

export type SentMessage = {
  id: string;
  deduplicated: boolean;
  deliverAt: string;
};

export interface QueueService {
  send(caller: InstallCaller, body: QueueSendRequest): Promise<{ messages: SentMessage[] }>;
}

export interface QueueServiceDeps {
  db: Db;
  clock: Clock;
  /** Nudges this process's delivery loops after the messages commit. */
  wake(): void;
}

/** The messages to write and the answer for each request entry (a repeated key answers its first send). */
function plan(body: QueueSendRequest, live: Map<string, { messageId: string; deliverAt: Date }>, now: Date): { rows: MessageRow[]; answers: SentMessage[] } {
  const rows: MessageRow[] = [];
  const answers: SentMessage[] = [];
  const byKey = new Map(live);
  for (const message of body.messages) {
    const earlier = message.key === undefined ? undefined : byKey.get(message.key);
    if (earlier) {
      answers.push({ id: earlier.messageId, deduplicated: true, deliverAt: earlier.deliverAt.toISOString() });
      continue;
    }
    const id = newEventId();
    const deliverAt = new Date(now.getTime() + (message.delaySeconds ?? 0) * 1000);
    const key = message.key ?? null;
    rows.push({
      id, key, deliver_at: deliverAt, bytes: utf8Length(JSON.stringify(message.body)),
      payload: { message: { id, body: message.body, key, sentAt: now.toISOString(), deliverAt: deliverAt.toISOString() } },
    });
    if (key !== null) byKey.set(key, { messageId: id, deliverAt });
    answers.push({ id, deduplicated: false, deliverAt: deliverAt.toISOString() });
  }
  return { rows, answers };
}

/**
 * @example
 * const queues = createQueueService({ db, clock, wake });
 * await queues.send(caller, { messages: [{ body: { remind: 'mem_1' }, delaySeconds: 259_200, key: 'remind:mem_1' }] });
 */
export function createQueueService(deps: QueueServiceDeps): QueueService {
  return {
    async send(caller, body) {
      const install = await installQueue(deps.db, caller.installId);
      if (install === undefined || install.status !== 'active') throw new PlatformError('PlatformAppInstallRevokedError', 'The install is not active');
      if (install.queue === null) {
        throw new PlatformError('PlatformAppQueueUndefinedError', 'The version this install runs defines no queue (defineQueue): nothing would receive the messages');
      }
      const now = new Date(deps.clock.now());
      const result = await deps.db.transaction(async (tx) => {
        await lockInstallQueue(tx, caller.installId);
        const keys = body.messages.flatMap((m) => (m.key === undefined ? [] : [m.key]));
        const { rows, answers } = plan(body, await liveKeys(tx, caller.installId, keys, now), now);
        checkQueueLimits(await queueUsage(tx, caller.installId, new Date(now.getTime() - 1000)), { count: rows.length, bytes: rows.reduce((sum, r) => sum + r.bytes, 0) });
        if (rows.length > 0) await insertMessages(tx, caller.installId, rows, now, new Date(now.getTime() + Q.dedupeWindowMs));
        return { messages: answers, written: rows.length };
      });
      if (result.written > 0) deps.wake();
      return { messages: result.messages };
    },
  };
}
