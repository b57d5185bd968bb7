/**
 * @module apps/log-drains/schemas
 * Wire shapes of log drains (`/v0/apps/{app_id}/log-drains`) and of the batches a drain receives.
 * A drain's signing secret is shown once, in the answer that made it (or rotated it).
 */
import { z } from 'zod';
import { EndpointUrlSchema } from '@platform/sdk';
import { LogLineSchema } from '../logs/schemas.ts';

export const LogDrainSchema = z.object({
  id: z.string(),
  appId: z.string(),
  url: z.string(),
  state: z.enum(['active', 'disabled']).describe('`disabled` after failing without a success for 24 hours, or by the author; enable it again with `…/enable`'),
  disabledReason: z.string().nullable(),
  failures: z.number().int().describe('Failed attempts since the last success'),
  failingSince: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastDeliveredAt: z.iso.datetime().nullable(),
  previousSecretExpiresAt: z.iso.datetime().nullable().describe('While set, batches carry a second signature made with the secret before the last rotation'),
  createdAt: z.iso.datetime(),
}).meta({ id: 'LogDrain' });
export type LogDrain = z.output<typeof LogDrainSchema>;

export const LogDrainListSchema = z.object({ items: z.array(LogDrainSchema) });

export const LogDrainCreateSchema = z.strictObject({ url: EndpointUrlSchema.describe('https:// (http:// only to loopback, in development)') });

export const LogDrainWithSecretSchema = z.object({
  drain: LogDrainSchema,
  secret: z.string().describe('`whsec_…`: verify batches with it (Standard Webhooks). Shown only here.'),
});

/** What a drain receives: one POST per batch, its lines oldest first, as `GET …/logs` answers them (no CPU profile). */
export const LogDrainBatchSchema = z.object({
  type: z.literal('app.logs'),
  drainId: z.string(),
  appId: z.string(),
  test: z.boolean().describe('True for `…/test`: a line made up to check the endpoint'),
  lines: z.array(LogLineSchema.omit({ profile: true })),
}).meta({ id: 'LogDrainBatch' });
export type LogDrainBatch = z.output<typeof LogDrainBatchSchema>;

export const LogDrainTestSchema = z.object({
  delivered: z.boolean(),
  status: z.number().int().nullable(),
  durationMs: z.number(),
  error: z.string().nullable(),
  batch: LogDrainBatchSchema.describe('The body that was sent, as every batch is shaped'),
});
export type LogDrainTest = z.output<typeof LogDrainTestSchema>;
