/**
 * @module queues/delivery
 * The `queue.message` lifecycle delivery (ours, docs/decisions/queues.md): one message the app
 * sent itself, with its id, body, dedupe key, when it was sent and when it was due. Read leniently.
 */
import { z } from 'zod';
import { TimestampSchema } from '../wire/primitives.ts';

export { QUEUE_MESSAGE } from './delivery-type.ts';

export const QueueMessageDataSchema = z.looseObject({
  message: z.looseObject({ id: z.string().min(1), body: z.unknown(), key: z.string().nullable(), sentAt: TimestampSchema, deliverAt: TimestampSchema }),
});

export type QueueMessageData = z.infer<typeof QueueMessageDataSchema>;
