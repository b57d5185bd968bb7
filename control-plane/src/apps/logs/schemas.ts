/**
 * @module apps/logs/schemas
 * Wire shapes of hosted apps' logs: the batch a runtime node ships (`POST /internal/v1/logs`), a
 * line as tooling reads it (`GET /v0/apps/{app_id}/logs`, and each event of the stream), and the
 * filters both take.
 */
import { z } from 'zod';
import { COUNTER_MAX } from '@platform/sdk';

export const LOG_LEVELS = ['log', 'info', 'warn', 'error', 'debug', 'limit', 'request'] as const;
export const LOG_KINDS = ['route', 'mcp', 'interactive', 'command', 'lifecycle'] as const;
export const OUTCOMES = ['ok', 'error', 'cpu_limit', 'memory_limit', 'deadline', 'crashed'] as const;

/** Caps on what a node may ship: a line's message and a batch (the node cuts lines at 8 KB). */
export const INGEST_LIMITS = { messageChars: 16_384, linesPerBatch: 1_000, batchBytes: 16 * 1024 * 1024, profileChars: 2 * 1024 * 1024 } as const;

const RequestSummary = z.object({
  label: z.string().max(300),
  outcome: z.enum(OUTCOMES),
  httpStatus: z.number().int().min(100).max(599).nullable(),
  cpuMs: z.number().min(0),
  wallMs: z.number().min(0),
  outbound: z.number().int().min(0),
});

const ShortId = z.string().max(100);

const ShippedLine = z.strictObject({
  at: z.iso.datetime(),
  appId: z.string().min(1).max(64),
  version: z.number().int().min(0).nullable(),
  requestId: z.string().max(100),
  deliveryId: ShortId.nullable(),
  installId: ShortId.nullable(),
  kind: z.string().min(1).max(32),
  level: z.enum(LOG_LEVELS),
  status: z.enum(['ok', 'error']),
  message: z.string().max(INGEST_LIMITS.messageChars),
  request: z.strictObject(RequestSummary.shape).optional(),
  /** The `.cpuprofile` JSON of a request stopped at its CPU budget (on its limit line). */
  profile: z.string().max(INGEST_LIMITS.profileChars).optional(),
});
export type ShippedLine = z.output<typeof ShippedLine>;

export const LogBatchSchema = z.strictObject({
  node: z.string().min(1).max(200),
  lines: z.array(ShippedLine).max(INGEST_LIMITS.linesPerBatch),
});

export const LogLineSchema = z.object({
  id: z.string().meta({ description: 'Orders lines as stored; the cursor and the stream\'s event id' }),
  at: z.string(),
  appId: z.string(),
  version: z.number().int().nullable(),
  installId: z.string().nullable(),
  requestId: z.string().nullable(),
  deliveryId: z.string().nullable(),
  kind: z.string().meta({ description: 'route, mcp, interactive, command or lifecycle' }),
  level: z.enum(LOG_LEVELS).meta({ description: 'log|info|warn|error|debug (console), limit (CPU, memory, deadline, blocked egress, quarantine), request (one per request)' }),
  status: z.enum(['ok', 'error']).meta({ description: 'error: the line\'s request failed (an error outcome or a 5xx), or the line is an error or limit line' }),
  message: z.string(),
  request: RequestSummary.nullable(),
  profile: z.string().nullable().meta({ description: 'Where the sampled CPU profile of a request stopped at its CPU budget downloads (`.cpuprofile`, opens in Chrome DevTools), or null' }),
});
export type LogLine = z.output<typeof LogLineSchema>;

export const LogPageSchema = z.object({ items: z.array(LogLineSchema), nextCursor: z.string().nullable() });

const Filters = {
  status: z.enum(['ok', 'error']).optional(),
  version: z.coerce.number().int().min(0).max(COUNTER_MAX).optional(),
  install: z.string().min(1).max(100).optional(),
  kind: z.enum(LOG_KINDS).optional(),
};

export const LogQuerySchema = z.strictObject({
  ...Filters,
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(40).optional(),
});
export type LogQuery = z.output<typeof LogQuerySchema>;

export const LogStreamQuerySchema = z.strictObject({
  ...Filters,
  after: z.string().regex(/^\d{1,19}$/, 'a line id').optional()
    .meta({ description: 'Replay stored lines after this id first (also read from Last-Event-ID)' }),
});
export type LogStreamQuery = z.output<typeof LogStreamQuerySchema>;
export type LogFilters = Pick<LogQuery, 'status' | 'version' | 'install' | 'kind'>;
