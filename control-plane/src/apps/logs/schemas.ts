/**
 * @module apps/logs/schemas
 * Wire shapes of hosted apps' logs: the batch a runtime node ships (`POST /internal/v1/logs`) and
 * the filters tooling reads with. A line as tooling reads it (`GET /v0/apps/{app_id}/logs`, each
 * event of the stream) is the SDK's `LogLineSchema` (sandbox-lib/src/api/logs.ts), which the CLI and
 * the console read too.
 */
import { z } from 'zod';
import { COUNTER_MAX, LOG_ERROR_LIMITS, LOG_KINDS, LOG_LEVELS, LOG_OUTCOMES, LogLineSchema, LogPageSchema, LogRequestSummarySchema, type LogLine } from '@platform/sdk';

export { LOG_KINDS, LOG_LEVELS, LogLineSchema, LogPageSchema, type LogLine };
export const OUTCOMES = LOG_OUTCOMES;

/** Caps on what a node may ship: a line's message and a batch (the node cuts lines at 8 KB). */
export const INGEST_LIMITS = { messageChars: 16_384, linesPerBatch: 1_000, batchBytes: 16 * 1024 * 1024, profileChars: 2 * 1024 * 1024 } as const;


const ShortId = z.string().max(100);

/** A frame as a node ships it: strict, every string capped (the node cuts to the same caps). */
const ShippedPosition = {
  function: z.string().max(LOG_ERROR_LIMITS.functionChars).nullable(),
  file: z.string().max(LOG_ERROR_LIMITS.fileChars).nullable(),
  line: z.number().int().min(0).max(1e9).nullable(),
  column: z.number().int().min(0).max(1e9).nullable(),
};
const ShippedError = z.strictObject({
  name: z.string().max(LOG_ERROR_LIMITS.nameChars),
  message: z.string().max(LOG_ERROR_LIMITS.messageChars),
  frames: z.array(z.strictObject({ ...ShippedPosition, raw: z.strictObject(ShippedPosition).nullable() })).max(LOG_ERROR_LIMITS.frames),
});

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
  request: z.strictObject(LogRequestSummarySchema.shape).optional(),
  /** The error the line is about, its frames mapped to the author's sources by the node. */
  error: ShippedError.optional(),
  /** The `.cpuprofile` JSON of a request stopped at its CPU budget (on its limit line). */
  profile: z.string().max(INGEST_LIMITS.profileChars).optional(),
});
export type ShippedLine = z.output<typeof ShippedLine>;

export const LogBatchSchema = z.strictObject({
  node: z.string().min(1).max(200),
  lines: z.array(ShippedLine).max(INGEST_LIMITS.linesPerBatch),
});

const Filters = {
  status: z.enum(['ok', 'error']).optional(),
  version: z.coerce.number().int().min(0).max(COUNTER_MAX).optional(),
  install: z.string().min(1).max(100).optional(),
  kind: z.enum(LOG_KINDS).optional(),
  delivery: z.string().min(1).max(100).optional().meta({ description: 'Lines of one delivery (its id, `dlv_…`; a replay\'s `replayId`)' }),
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
export type LogFilters = Pick<LogQuery, 'status' | 'version' | 'install' | 'kind' | 'delivery'>;
