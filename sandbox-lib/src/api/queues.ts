/**
 * @module api/queues
 * `POST /v0/queue/messages` (ours, docs/decisions/queues.md): an app sends messages to its own
 * install's queue; each comes back as a `queue.message` lifecycle delivery, after `delaySeconds`.
 * A `key` already sent within the dedupe window is not sent again (the answer says so).
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { TimestampSchema } from '../wire/primitives.ts';
import { utf8Length } from '../json-schema/json-size.ts';

const Q = LIMITS.queues;

export const QueueMessageRequestSchema = z.strictObject({
  body: z.json().refine((value) => utf8Length(JSON.stringify(value)) <= Q.messageBytes, `A message body is at most ${Q.messageBytes / 1024} KB as JSON`),
  delaySeconds: z.int().min(0).max(Q.maxDelaySeconds, `Delays are at most ${Q.maxDelaySeconds} seconds (7 days)`).optional(),
  key: z.string().min(1).max(Q.keyLength).optional(),
});

export const QueueSendRequestSchema = z.strictObject({
  messages: z.array(QueueMessageRequestSchema).min(1).max(Q.messagesPerBatch, `At most ${Q.messagesPerBatch} messages per request`),
});

export const QueueSendResponseSchema = z.looseObject({
  messages: z.array(z.looseObject({
    /** The message's id (its delivery's `webhook-id`); for a deduplicated send, the first send's. */
    id: z.string(),
    deduplicated: z.boolean(),
    deliverAt: TimestampSchema,
  })),
});

export type QueueMessageRequest = z.input<typeof QueueMessageRequestSchema>;
export type QueueSendRequest = z.input<typeof QueueSendRequestSchema>;
export type QueueSendResponse = z.output<typeof QueueSendResponseSchema>;
