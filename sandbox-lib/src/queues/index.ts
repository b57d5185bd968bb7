/**
 * @module queues
 * Queues (our extension, docs/decisions/queues.md): the data of the `queue.message` delivery.
 * The send endpoint's shapes are in `api/queues.ts`, the limits in `LIMITS.queues`.
 */
export { QUEUE_MESSAGE, QueueMessageDataSchema, type QueueMessageData } from './delivery.ts';
