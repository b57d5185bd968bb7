/**
 * @module authoring/logger
 * The logger handlers and the delivery pipeline write to. Injected through `defineApp`'s options;
 * the default writes to the host's `console`, which is where an isolate's logs are captured and
 * where a self-hosted app's operator looks. Fields are structured so a JSON logger can take them.
 */

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * Writes to `console` (the SDK's one sink by default; pass your own logger to `defineApp`).
 * @example defineApp({ ... }, { logger: consoleLogger })
 */
export const consoleLogger: Logger = {
  // The SDK runs in the app author's process or isolate; console is its log capability there.
  /* eslint-disable no-console */
  debug: (message, fields) => console.debug(message, fields ?? {}),
  info: (message, fields) => console.info(message, fields ?? {}),
  warn: (message, fields) => console.warn(message, fields ?? {}),
  error: (message, fields) => console.error(message, fields ?? {}),
  /* eslint-enable no-console */
};

/**
 * Drops everything (tests that assert on behaviour, not on logs).
 * @example defineApp({ ... }, { logger: silentLogger })
 */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
