/**
 * @module core/log/logger
 * pino loggers. One root logger per process; each request gets a child carrying its request id
 * (see core/http/request-context.ts), so every line a request causes can be found by that id.
 * JSON lines, or pino-pretty's readable ones at a developer's terminal (LOG_FORMAT).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { logFormatOf, type Config } from '../config/config.ts';

export type { Logger } from 'pino';

/**
 * pino-pretty at a developer's terminal: one line per entry (its fields inline), so what `npm start`
 * prints first (the console's sign-in link) is not pushed away by multi-line objects.
 */
export const PRETTY_OPTIONS = { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true } as const;

/**
 * JSON lines are gathered up to this many bytes before one write to stdout. pino's default
 * destination wrote each line on its own (one `write` per request at least: the access log), a
 * syscall that was ≈ 1 % of the control plane's samples under clicks (decisions/clicks.md).
 */
export const LOG_BUFFER_BYTES = 4096;
/** …and written at the latest this often, so a quiet process's lines still show within a moment. */
export const LOG_FLUSH_MS = 100;

/**
 * stdout, buffered. Nothing is lost when the process ends in a way it sees: pino's destination
 * flushes synchronously on `exit` (so on `process.exit`, after SIGINT/SIGTERM's shutdown, and after an
 * uncaught exception, which exits through the same event). A process killed outright (SIGKILL, the
 * OOM killer) loses at most the last `LOG_FLUSH_MS` or `LOG_BUFFER_BYTES` of lines, which no
 * asynchronous write avoids either; a synchronous write per line was the only way to lose none.
 */
export function bufferedStdout(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/**
 * @example
 * const log = createLogger(config);
 * log.info({ port }, 'listening');
 */
export function createLogger(config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat' | 'dev'>>, destination?: DestinationStream, name = 'control-plane', tee?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: name },
    // Credentials never reach the logs, even when a handler logs a whole header set by mistake.
    redact: { paths: ['*.authorization', '*.headers.authorization', 'apiKey', '*.apiKey', 'key', '*.key'], censor: '[redacted]' },
  };
  // Readable lines at a developer's terminal (LOG_FORMAT, core/config): written in this thread, so a
  // crash loses no line; JSON everywhere else.
  const pretty = logFormatOf({ logFormat: config.logFormat ?? 'json', dev: config.dev ?? false }) === 'pretty';
  if (tee === undefined) return pino(options, destination ?? (pretty ? PinoPretty(PRETTY_OPTIONS) : bufferedStdout()));
  // `tee` (the OTLP log export, core/telemetry) gets every line the logger's level lets through.
  const out = destination ?? (pretty ? PinoPretty(PRETTY_OPTIONS) : bufferedStdout());
  return pino(options, pino.multistream([{ level: 'trace', stream: out }, { level: 'trace', stream: tee }]));
}
