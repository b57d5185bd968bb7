/**
 * @module deliveries/replay/schemas
 * Wire shapes of `POST /v0/apps/{app_id}/deliveries/{delivery_id}/replay`.
 */
import { z } from 'zod';
import { COUNTER_MAX } from '@platform/sdk';

export const ReplayRequestSchema = z.strictObject({
  version: z.int().min(1).max(COUNTER_MAX).optional().describe('The version to run the delivery against (default: the latest preview)'),
});

const Answer = {
  status: z.int().nullable().describe('The app\'s HTTP status; null when it did not answer'),
  error: z.string().nullable().describe('Why the delivery failed, when it did'),
  response: z.string().nullable().describe('The app\'s answer (text, the first 16 KB); null when it did not answer or was not kept'),
  responseTruncated: z.boolean(),
};

export const ReplayResponseSchema = z.object({
  deliveryId: z.string().describe('The recorded delivery'),
  replayId: z.string().describe('The replay\'s own `webhook-id` (a replay is never the recorded delivery again)'),
  class: z.enum(['lifecycle', 'interactive']),
  type: z.string(),
  installId: z.string(),
  hosting: z.enum(['platform', 'self']).describe('platform: a runtime node ran the replay, and its log lines (`GET …/logs?delivery={replayId}`) say what the app logged'),
  version: z.int().describe('The version the replay ran against'),
  recorded: z.object({
    version: z.int().nullable().describe('The version the install ran then (kept for interactive deliveries)'),
    attempt: z.int().nullable().describe('The last attempt, whose answer this is'),
    ...Answer,
  }),
  replayed: z.object({ ...Answer, durationMs: z.int() }),
}).meta({ id: 'DeliveryReplay' });

export type ReplayResponse = z.input<typeof ReplayResponseSchema>;
