/**
 * @module apps/usage/schemas
 * Wire shapes of usage over time: the counts a runtime node flushes (`POST /internal/v1/usage`),
 * the window a reader asks for, and the series answered (`/v0/apps/{app_id}/usage`, the console's
 * client routes). Counts are whole numbers; `cpuUs` is the guest's CPU in microseconds.
 */
import { z } from 'zod';
import { COUNTER_MAX } from '@platform/sdk';

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Id = z.string().min(1).max(100);

/** One (app, version, install, minute) of a node's counts, as the node's meter holds it (runtime/src/usage/meter.ts). */
const FlushedRow = z.strictObject({
  appId: z.string().min(1).max(64),
  version: z.number().int().min(0).max(COUNTER_MAX).nullable(),
  installId: Id.nullable(),
  minute: z.number().int().min(0).max(8.64e15).refine((m) => m % 60_000 === 0, 'the start of a minute'),
  requestsOk: Count, requestsError: Count, requestsCpuLimit: Count, requestsMemoryLimit: Count, requestsDeadline: Count, requestsCrashed: Count,
  cpuUs: Count, egressCalls: Count, egressBytesOut: Count, egressBytesIn: Count,
});

export const USAGE_INGEST = { rowsPerFlush: 5_000, flushBytes: 8 * 1024 * 1024 } as const;

export const UsageFlushSchema = z.strictObject({
  /** The flush's idempotency key: a retried flush carries the same one. */
  key: z.string().min(8).max(100),
  node: z.string().min(1).max(200),
  rows: z.array(FlushedRow).max(USAGE_INGEST.rowsPerFlush),
});
export type UsageFlush = z.output<typeof UsageFlushSchema>;

export const USAGE_STEPS = ['minute', 'hour'] as const;

/** Windows ending now, as the console offers them (each with the step it is drawn at unless `step` says otherwise). */
export const USAGE_LAST = ['1h', '24h', '7d', '90d'] as const;

const Window = {
  last: z.enum(USAGE_LAST).optional().meta({ description: 'The window ending now: 1h and 24h per minute, 7d and 90d per hour (`from` and `to` must not be given with it)' }),
  from: z.iso.datetime({ offset: true }).optional().meta({ description: 'Start of the window (inclusive, rounded down to the step); default: `to` less one hour (step minute) or one day (step hour)' }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'End of the window (exclusive); default: now' }),
  step: z.enum(USAGE_STEPS).optional().meta({ description: 'minute (kept 24 hours, at most 24 hours a window) or hour (kept 90 days, at most 90 days a window); default minute, or the one `last` names' }),
};

export const UsageQuerySchema = z.strictObject({
  ...Window,
  install: Id.optional().meta({ description: 'Only this install\'s counts (default: every install of the app, and its requests of no install)' }),
  format: z.enum(['json', 'csv']).default('json').meta({ description: '`csv`: one row per bucket, the columns of USAGE_CSV_COLUMNS' }),
});
export type UsageQuery = z.output<typeof UsageQuerySchema>;

export const OperatorUsageQuerySchema = z.strictObject(Window);
export type OperatorUsageQuery = z.output<typeof OperatorUsageQuerySchema>;

const Figures = {
  requests: z.strictObject({ ok: Count, error: Count, cpuLimit: Count, memoryLimit: Count, deadline: Count, crashed: Count })
    .meta({ description: 'Hosted requests (routes, MCP, deliveries run on a runtime node) by outcome; a 5xx answer is an error' }),
  deliveries: z.strictObject({ succeeded: Count, failed: Count }).meta({ description: 'Delivery attempts of the control plane (events, clicks, schedules, queue messages) by result' }),
  cpuUs: Count.meta({ description: 'The guest\'s CPU time, microseconds' }),
  egress: z.strictObject({ calls: Count, bytesOut: Count, bytesIn: Count }).meta({ description: 'Outbound calls of hosted code and their body bytes sent and received' }),
  storage: z.strictObject({
    bytes: Count.nullable().meta({ description: 'Stored bytes when sampled in the bucket (an hour: its highest sample); null: no sample' }),
    reads: Count, writes: Count,
  }),
  queue: z.strictObject({ sent: Count, delivered: Count }).meta({ description: 'Queue messages sent, and delivered (acknowledged by the app)' }),
};

export const UsagePointSchema = z.strictObject({ at: z.iso.datetime().meta({ description: 'Start of the bucket' }), ...Figures }).meta({ id: 'UsagePoint' });
export type UsagePoint = z.output<typeof UsagePointSchema>;
export const UsageTotalsSchema = z.strictObject(Figures).meta({ id: 'UsageTotals', description: 'Sums over the window; storage bytes: the latest sample' });
export type UsageTotals = z.output<typeof UsageTotalsSchema>;

export const UsageSeriesSchema = z.strictObject({
  appId: z.string(),
  install: z.string().nullable(),
  step: z.enum(USAGE_STEPS),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  points: z.array(UsagePointSchema).meta({ description: 'Every bucket of the window, oldest first (zeros where nothing happened)' }),
  totals: UsageTotalsSchema,
}).meta({ id: 'UsageSeries' });
export type UsageSeries = z.output<typeof UsageSeriesSchema>;

export const OperatorUsageSchema = z.strictObject({
  step: z.enum(USAGE_STEPS),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  points: z.array(UsagePointSchema).meta({ description: 'The workspace\'s apps summed, every bucket of the window' }),
  apps: z.array(z.strictObject({ appId: z.string(), slug: z.string(), name: z.string(), totals: UsageTotalsSchema })),
}).meta({ id: 'OperatorUsage' });
export type OperatorUsage = z.output<typeof OperatorUsageSchema>;
