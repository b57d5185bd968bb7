/**
 * @module api/logs
 * Ours: a hosted app's log line as tooling reads it (`GET /v0/apps/{app_id}/logs`, each event of
 * `…/logs/stream`), what `platform logs --json` prints and the console's Logs page draws. An error
 * line (and a limit line with the guest's stack) carries the error as data: `name`, `message` and
 * its frames, each naming the author's file, line and function when the version's source map
 * mapped it, with the position in the uploaded bundle kept beside it (`raw`).
 */
import { z } from 'zod';

export const LOG_LEVELS = ['log', 'info', 'warn', 'error', 'debug', 'limit', 'request'] as const;
export const LOG_KINDS = ['route', 'mcp', 'interactive', 'command', 'lifecycle'] as const;
export const LOG_OUTCOMES = ['ok', 'error', 'cpu_limit', 'memory_limit', 'deadline', 'crashed'] as const;

/** Caps on a line's error (the runtime node cuts to them; the control plane refuses more). */
export const LOG_ERROR_LIMITS = { nameChars: 200, messageChars: 2_000, frames: 50, functionChars: 300, fileChars: 500 } as const;

const position = {
  function: z.string().max(LOG_ERROR_LIMITS.functionChars).nullable().meta({ description: 'The function\'s name; null when anonymous or at the top level' }),
  file: z.string().max(LOG_ERROR_LIMITS.fileChars).nullable().meta({ description: 'The file (a path of the author\'s project when mapped, `app:///bundle.js` when not); null for native frames' }),
  line: z.int().min(0).nullable().meta({ description: '1-based' }),
  column: z.int().min(0).nullable().meta({ description: '1-based' }),
};

export const StackPositionSchema = z.object(position).meta({ id: 'StackPosition' });

export const StackFrameSchema = z.object({
  ...position,
  raw: StackPositionSchema.nullable()
    .meta({ description: 'Where the frame is in the uploaded bundle, when the source map mapped it (the fields above are then the original ones); null when not mapped' }),
}).meta({ id: 'StackFrame' });
export type StackFrame = z.output<typeof StackFrameSchema>;

export const LogErrorSchema = z.object({
  name: z.string().max(LOG_ERROR_LIMITS.nameChars).meta({ description: 'The error\'s name (`TypeError`), or the limit\'s tag on a limit line' }),
  message: z.string().max(LOG_ERROR_LIMITS.messageChars),
  frames: z.array(StackFrameSchema).max(LOG_ERROR_LIMITS.frames).meta({ description: 'Innermost first; the platform\'s own frames are left out' }),
}).meta({ id: 'LogError' });
export type LogError = z.output<typeof LogErrorSchema>;

export const LogRequestSummarySchema = z.object({
  label: z.string().max(300),
  outcome: z.enum(LOG_OUTCOMES),
  httpStatus: z.number().int().min(100).max(599).nullable(),
  cpuMs: z.number().min(0),
  wallMs: z.number().min(0),
  outbound: z.number().int().min(0),
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
  request: LogRequestSummarySchema.nullable(),
  error: LogErrorSchema.nullable()
    .meta({ description: 'The error the line is about (an uncaught error, an Error the app logged, the stack a CPU stop or a load failure caught), with its frames; null otherwise' }),
  profile: z.string().nullable().meta({ description: 'Where the sampled CPU profile of a request stopped at its CPU budget downloads (`.cpuprofile`, opens in Chrome DevTools), or null' }),
}).meta({ id: 'AppLogLine' });
export type LogLine = z.output<typeof LogLineSchema>;

export const LogPageSchema = z.object({ items: z.array(LogLineSchema), nextCursor: z.string().nullable() });
export type LogPage = z.output<typeof LogPageSchema>;
