/**
 * @module deliveries/initiative/schemas
 * Wire shapes of the tooling endpoints over schedules and queues (ours, docs/decisions/queues.md).
 */
import { z } from 'zod';
import { QueueMessageRequestSchema } from '@platform/sdk';

const install = { installId: z.string(), installKind: z.enum(['workspace', 'dev']) };

export const ScheduleStateSchema = z.object({
  ...install,
  name: z.string(),
  cron: z.string(),
  timeZone: z.string(),
  nextDueAt: z.string().nullable(),
  lastDueAt: z.string().nullable(),
  lastFiredAt: z.string().nullable(),
  lastOutcome: z.string().nullable().describe('The last firing\'s delivery: pending, delivered, paused, dead, cancelled; null: none yet, or no longer kept'),
  skipped: z.number().int().describe('Due times passed over while the install was suspended or paused'),
});
export const ScheduleListSchema = z.object({ items: z.array(ScheduleStateSchema) });

export const ScheduleRunRequestSchema = z.strictObject({ installId: z.string().min(1).max(200).optional() });
export const ScheduleRunResponseSchema = z.object({ id: z.string(), installId: z.string(), dueAt: z.string() });

export const QueueStateSchema = z.object({
  ...install,
  depth: z.number().int().describe('Messages not yet acknowledged (pending or paused)'),
  oldestAgeSeconds: z.number().nullable(),
  deadLetters: z.number().int(),
});
export const DeadLetterSchema = z.object({ id: z.string(), installId: z.string(), createdAt: z.string(), attempts: z.number().int(), lastError: z.string().nullable() });
export const QueueOverviewSchema = z.object({ items: z.array(QueueStateSchema), deadLetters: z.array(DeadLetterSchema) });

export const ToolingQueueSendSchema = z.strictObject({ installId: z.string().min(1).max(200).optional(), messages: z.array(QueueMessageRequestSchema).min(1).max(100) });
