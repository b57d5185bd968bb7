/**
 * @module queues/delivery-type
 * The `queue.message` delivery type as plain data (no zod), for `app.fetch` inside bundles.
 */
export const QUEUE_MESSAGE = 'queue.message';
