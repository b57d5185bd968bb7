/**
 * @module deliveries/queues/service
 * `POST /v0/queue/messages` (ours, docs/decisions/queues.md): an install sends messages to its own
 * queue. Each becomes an outbox event of type `queue.message`, due after its delay, whose delivery
 * has the app's `maxAttempts` and every other outbox rule (backoff, `410` pause, one `webhook-id`,
 * dead letters on the Deliveries page, redelivery). A `key` sent within the dedupe window answers
 * the first message instead of sending again. Sends of one install are serialised by an advisory
 * lock, so the limits read and the writes agree.
 *
 * Sent while a block action runs (the interaction token of its unit of work), messages are staged
 * and written in the transaction that applies the action's result: a refused result sends none
 * (docs/decisions/queues.md). Limits are checked when staged, and again, with the dedupe keys, when
 * applied; the ids answered are the ids the messages get.
 */
import { LIMITS, PlatformError, utf8Length, type QueueSendRequest } from '@platform/sdk';
import type { InstallCaller, InteractionCaller } from '../../core/auth/caller.ts';
import type { Applier, UnitOfWork } from '../../core/unit-of-work/unit-of-work.ts';
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
  send(caller: InstallCaller | InteractionCaller, body: QueueSendRequest): Promise<{ messages: SentMessage[] }>;
}

export interface QueueServiceDeps {
  db: Db;
  clock: Clock;
  /** Nudges this process's delivery loops after the messages commit. */
  wake(): void;
  /** Counts messages written (usage, apps/usage). */
  onSent?: (installId: string, count: number) => void;
  /** Where a block action's sends are staged until its result commits. */
  unitOfWork?: UnitOfWork;
}

/** The kind of a staged send in the unit of work. */
export const STAGED_SEND = 'queue.send';

/** A send staged by a block action: applied as it was asked, with the ids it was answered. */
interface StagedSend {
  installId: string;
  body: QueueSendRequest;
  ids: string[];
}

/** The messages to write and the answer for each request entry (a repeated key answers its first send). */
function plan(body: QueueSendRequest, live: Map<string, { messageId: string; deliverAt: Date }>, now: Date, ids?: readonly string[]): { rows: MessageRow[]; answers: SentMessage[] } {
  const rows: MessageRow[] = [];
  const answers: SentMessage[] = [];
  const byKey = new Map(live);
  for (const [i, message] of body.messages.entries()) {
    const earlier = message.key === undefined ? undefined : byKey.get(message.key);
    if (earlier) {
      answers.push({ id: earlier.messageId, deduplicated: true, deliverAt: earlier.deliverAt.toISOString() });
      continue;
    }
    const id = ids?.[i] ?? newEventId();
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
 * Within `tx`: serialises the install's sends, drops repeated keys, checks the limits and writes
 * the messages; answers one entry per message and how many were written.
 */
async function writeSend(tx: Db, installId: string, body: QueueSendRequest, now: Date, ids?: readonly string[]): Promise<{ messages: SentMessage[]; written: number }> {
  await lockInstallQueue(tx, installId);
  const keys = body.messages.flatMap((m) => (m.key === undefined ? [] : [m.key]));
  const { rows, answers } = plan(body, await liveKeys(tx, installId, keys, now), now, ids);
  checkQueueLimits(await queueUsage(tx, installId, new Date(now.getTime() - 1000)), { count: rows.length, bytes: rows.reduce((sum, r) => sum + r.bytes, 0) });
  if (rows.length > 0) await insertMessages(tx, installId, rows, now, new Date(now.getTime() + Q.dedupeWindowMs));
  return { messages: answers, written: rows.length };
}

/**
 * Applies a staged send in the action result's transaction (the outbox's NOTIFY, sent at commit,
 * wakes the delivery loops). A limit reached meanwhile refuses the whole result.
 */
export function stagedSendApplier(deps: { clock: Clock; onSent?: (installId: string, count: number) => void }): Applier {
  return async (tx, payload) => {
    const staged = payload as StagedSend;
    const { written } = await writeSend(tx, staged.installId, staged.body, new Date(deps.clock.now()), staged.ids);
    if (written > 0) deps.onSent?.(staged.installId, written);
  };
}

/**
 * @example
 * const queues = createQueueService({ db, clock, wake });
 * await queues.send(caller, { messages: [{ body: { remind: 'mem_1' }, delaySeconds: 259_200, key: 'remind:mem_1' }] });
 */
export function createQueueService(deps: QueueServiceDeps): QueueService {
  /** Stages a block action's send (checked as it would be sent now); null when its unit is closed. */
  async function stage(caller: InteractionCaller, body: QueueSendRequest, now: Date): Promise<{ messages: SentMessage[] } | null> {
    const ids = body.messages.map(() => newEventId());
    const checked = await deps.db.transaction(async (tx) => {
      const keys = body.messages.flatMap((m) => (m.key === undefined ? [] : [m.key]));
      const { rows, answers } = plan(body, await liveKeys(tx, caller.installId, keys, now), now, ids);
      checkQueueLimits(await queueUsage(tx, caller.installId, new Date(now.getTime() - 1000)), { count: rows.length, bytes: rows.reduce((sum, r) => sum + r.bytes, 0) });
      return answers;
    });
    const item: StagedSend = { installId: caller.installId, body, ids };
    return (await deps.unitOfWork!.stage(deps.db, caller.unitKey, STAGED_SEND, item)) ? { messages: checked } : null;
  }

  return {
    async send(caller, body) {
      const install = await installQueue(deps.db, caller.installId);
      if (install === undefined || install.status !== 'active') throw new PlatformError('PlatformAppInstallRevokedError', 'The install is not active');
      if (install.queue === null) {
        throw new PlatformError('PlatformAppQueueUndefinedError', 'The version this install runs defines no queue (defineQueue): nothing would receive the messages');
      }
      const now = new Date(deps.clock.now());
      if (caller.kind === 'interaction' && caller.blockId !== null && deps.unitOfWork !== undefined) {
        const staged = await stage(caller, body, now);
        if (staged !== null) return staged;
      }
      const result = await deps.db.transaction((tx) => writeSend(tx, caller.installId, body, now));
      if (result.written > 0) {
        deps.wake();
        deps.onSent?.(caller.installId, result.written);
      }
      return { messages: result.messages };
    },
  };
}
