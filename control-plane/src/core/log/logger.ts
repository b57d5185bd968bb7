/**
 * @module core/log/logger
 * pino loggers. One root logger per process; each request gets a child carrying its request id
 * (see core/http/request-context.ts), so every line a request causes can be found by that id.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config/config.ts';

export type { Logger } from 'pino';

/**
 * @example
 * const log = createLogger(config);
 * log.info({ port }, 'listening');
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream, name = 'control-plane'): Logger {
  const options = {
    level: config.logLevel,
    base: { service: name },
    // Credentials never reach the logs, even when a handler logs a whole header set by mistake.
    redact: { paths: ['*.authorization', '*.headers.authorization', 'apiKey', '*.apiKey', 'key', '*.key'], censor: '[redacted]' },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
