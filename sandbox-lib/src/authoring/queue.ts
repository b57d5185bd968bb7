/**
 * @module authoring/queue
 * `defineQueue`: what the app does with the messages it sent itself (`ctx.queue.send`; ours,
 * docs/decisions/queues.md). Its manifest fragment is `queue: { maxAttempts }`: how many attempts
 * a message gets before it is a dead letter (1 to 20, default 5), retried on the outbox's backoff.
 * Each message is one `queue.message` lifecycle delivery; returning acknowledges it, throwing
 * makes the service retry it.
 */
import { LIMITS } from '../limits/index.ts';
import type { QueueDefinition } from '../manifest/index.ts';
import { read } from '../delivery/lean/check.ts';
import { queueMessageCheck } from '../queues/lean.ts';
import { extendContext, handlerContext, type ContextDeps, type DeliveryEnvelope, type HandlerContext } from './context.ts';
import { AppDefinitionError } from './errors.ts';
import { callHandler, DeliveryRejection } from './failures.ts';

import { pieceRun, QUEUE, QUEUE_HANDLER as HANDLER, type PieceRun } from './initiative-pieces.ts';

/** One message as delivered. */
export interface QueueMessage<B = unknown> {
  readonly id: string;
  readonly body: B;
  /** The dedupe key it was sent with, or null. */
  readonly key: string | null;
  readonly sentAt: string;
  /** When it was due (the send plus its delay). */
  readonly deliverAt: string;
}

export interface QueueContext<B = unknown> extends HandlerContext<DeliveryEnvelope<{ message: QueueMessage<B> }>> {
  readonly message: QueueMessage<B>;
}

export type QueueHandler<B = unknown> = (ctx: QueueContext<B>) => void | Promise<void>;

export interface QueueConfig<B = unknown> {
  /** Attempts per message before it is a dead letter (1 to 20). Default 5. */
  readonly maxAttempts?: number;
  readonly handler: QueueHandler<B>;
}

/** The consumer's handler, with the runner of `queue.message` (so apps without a queue bundle neither). */
export type QueueRun = PieceRun<QueueHandler<any>, typeof runQueueMessage>;

export interface Queue {
  readonly [QUEUE]: true;
  readonly manifest: QueueDefinition;
  readonly [HANDLER]: QueueRun;
  toJSON(): QueueDefinition;
}

/**
 * Defines the app's queue consumer.
 * @example
 * const reminders = defineQueue<{ memberId: string }>({ maxAttempts: 3, handler: async ({ message, api }) => { ... } });
 * export default defineApp({ name: 'Remind', slug: 'remind', hosting: 'platform', queue: reminders });
 */
export function defineQueue<B = unknown>(config: QueueConfig<B>): Queue {
  if (typeof config?.handler !== 'function') throw new AppDefinitionError(['queue', 'handler'], 'the queue needs a handler');
  const manifest: QueueDefinition = { maxAttempts: config.maxAttempts ?? LIMITS.queues.maxAttemptsDefault };
  const queue = { [QUEUE]: true as const, manifest, toJSON: () => manifest };
  Object.defineProperty(queue, HANDLER, { value: { handler: config.handler, run: runQueueMessage } satisfies QueueRun, enumerable: false });
  return Object.freeze(queue) as Queue;
}

/** The handler of a defined queue, or `undefined`. */
export function queueHandler(value: unknown): QueueHandler<any> | undefined {
  return pieceRun<QueueRun>(value, QUEUE, HANDLER)?.handler;
}

/** Runs one `queue.message` delivery (an app without a queue acknowledges: nothing would ever handle it). */
export async function runQueueMessage(envelope: DeliveryEnvelope, handler: QueueHandler<any> | undefined, deps: ContextDeps): Promise<void> {
  const parsed = read(queueMessageCheck, envelope.data);
  if (!parsed.ok) throw new DeliveryRejection(400, 'invalid-data', `The queue.message data does not match its schema at ${parsed.path.join('.') || '(root)'}: ${parsed.message}`);
  const data = parsed.value as { message: QueueMessage };
  if (!handler) {
    deps.log.warn('A queue message arrived but the app defines no queue; acknowledged', { delivery: envelope.id });
    return;
  }
  const ctx = extendContext(handlerContext({ ...envelope, data }, deps), { message: data.message });
  await callHandler('queue message', () => handler(ctx));
}
