/**
 * @module queues/lean
 * `QueueMessageDataSchema` (queues/delivery.ts) as a lean check, for `app.fetch` inside bundles.
 */
import { nullable, object, str, unknown, type Check } from '../delivery/lean/check.ts';
import { timestamp } from '../delivery/lean/primitives.ts';

export const queueMessageCheck: Check = object({
  message: object({ id: str(1), body: unknown, key: nullable(str()), sentAt: timestamp, deliverAt: timestamp }),
});
