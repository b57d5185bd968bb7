/**
 * @module deliveries/page/schemas
 * Wire shapes of the Deliveries page (client API, for the app's developer).
 */
import { z } from 'zod';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp } from '../../core/http/common.ts';

export const DELIVERY_OUTCOMES = ['pending', 'delivered', 'paused', 'dead', 'cancelled', 'failed'] as const;

const csv = <T extends string>(values: readonly [T, ...T[]]) =>
  z.string().max(200).transform((s) => s.split(',').map((v) => v.trim()).filter((v) => v !== '')).pipe(z.array(z.enum(values)).min(1));

export const DeliveryListQuery = z.strictObject({
  installId: Id.optional(),
  class: z.enum(['lifecycle', 'interactive']).optional(),
  type: z.string().min(1).max(64).optional(),
  outcome: csv(DELIVERY_OUTCOMES).optional().describe('Comma-separated outcomes'),
  since: Timestamp.optional().describe('Created at or after'),
  until: Timestamp.optional().describe('Created before'),
  limit: z.coerce.number().int().min(1).max(CLIENT_LIMITS.pageMax).default(CLIENT_LIMITS.pageDefault),
  cursor: z.string().max(200).optional(),
});

export const Delivery = z.object({
  id: Id.describe('The envelope id and `webhook-id`'),
  installId: Id,
  class: z.enum(['lifecycle', 'interactive']),
  type: z.string(),
  outcome: z.enum(DELIVERY_OUTCOMES).describe('pending: waits for its next attempt; paused: held while the install is paused; dead: 20 attempts failed; cancelled: the app was uninstalled first; failed: an interactive delivery that failed'),
  attempts: z.number().int(),
  nextAttemptAt: Timestamp.nullable(),
  lastAttemptAt: Timestamp.nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: Timestamp.nullable(),
  createdAt: Timestamp,
}).meta({ id: 'Delivery' });

export const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  startedAt: Timestamp,
  durationMs: z.number().int().nullable().describe('null: the worker stopped before the outcome was known'),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  response: z.string().nullable().describe('The app\'s answer (text, the first 16 KB); null when it did not answer or before this was kept'),
  responseTruncated: z.boolean().describe('The answer was longer than what is kept'),
}).meta({ id: 'DeliveryAttempt' });

export const DeliveryPage = z.object({ items: z.array(Delivery), nextCursor: z.string().nullable() });

export const DeliveryDetail = z.object({
  delivery: Delivery,
  attempts: z.array(DeliveryAttempt),
  data: z.record(z.string(), z.unknown()).nullable()
    .describe('`data` of the envelope: the event payload, or an interactive delivery\'s request without its interaction token; null when not kept (over 256 KB)'),
  actor: z.object({ memberId: z.string(), name: z.string() }).nullable(),
});

export const DeliveryResponse = z.object({ delivery: Delivery });

export const ResumeBody = z.strictObject({ installId: Id });
export const ResumeResponse = z.object({ installId: Id, requeued: z.number().int().describe('Deliveries that waited and are due now') });

export const InstallDeliveryState = z.object({
  installId: Id,
  workspaceId: Id,
  kind: z.enum(['workspace', 'dev']),
  installStatus: z.string(),
  paused: z.object({ at: Timestamp, reason: z.enum(['gone', 'failing']).nullable() }).nullable()
    .describe('gone: the app answered 410; failing: three days of continuous failure'),
  failingSince: Timestamp.nullable(),
}).meta({ id: 'InstallDeliveryState' });

export const InstallDeliveryStates = z.object({ items: z.array(InstallDeliveryState) });
