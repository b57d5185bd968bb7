/**
 * @module boot
 * What both entry points share: config, logger, database (migrated), key-value store and the
 * control plane, plus one orderly shutdown for SIGINT and SIGTERM.
 */
import { systemClock } from './core/clock/clock.ts';
import { ConfigError, loadConfig, type Config } from './core/config/config.ts';
import { createControlPlane, type ControlPlane } from './app.ts';
import type { Db } from './core/db/db.ts';
import { openDb } from './core/db/open-db.ts';
import type { Kv } from './core/kv/kv.ts';
import { openKv } from './core/kv/open-kv.ts';
import { createLogger, type Logger } from './core/log/logger.ts';
import { openTelemetry } from './core/telemetry/telemetry.ts';

export interface Booted {
  config: Config;
  logger: Logger;
  db: Db;
  kv: Kv;
  controlPlane: ControlPlane;
  /** Stops the server, then closes the store and the database. */
  close(): Promise<void>;
}

/** Loads config or exits with the list of problems (the one place a process prints them raw). */
/** The config from the environment; `defaults` stand in for variables that are unset (`npm start`'s own). */
export function configOrExit(defaults: Record<string, string> = {}): Config {
  try {
    return loadConfig({ ...defaults, ...process.env });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** `credentialsFile`: where this process writes the demo's API keys (`npm start`), for the console's sign-in page. */
export async function boot(config: Config, options: { credentialsFile?: string } = {}): Promise<Booted> {
  // OTLP export (off without OTEL_EXPORTER_OTLP_ENDPOINT): made first, so the logger writes to it too.
  const telemetry = openTelemetry(config);
  const logger = createLogger(config, undefined, undefined, telemetry?.logStream);
  const clock = systemClock;
  const db = await openDb(config, logger);
  let kv: Kv;
  try {
    kv = await openKv(config, { clock, logger });
  } catch (err) {
    await db.close();
    throw err;
  }
  const controlPlane = createControlPlane({ config, logger, db, kv, clock, telemetry, ...(options.credentialsFile === undefined ? {} : { credentialsFile: options.credentialsFile }) });
  return {
    config, logger, db, kv, controlPlane,
    async close() {
      await controlPlane.stop();
      await kv.close();
      await db.close();
      await telemetry?.shutdown();
    },
  };
}

/**
 * Calls `shutdown` once on the first SIGINT or SIGTERM; a second signal exits at once.
 *
 * @example
 * onShutdownSignal(async (signal) => { await booted.close(); process.exit(0); });
 */
export function onShutdownSignal(shutdown: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    void shutdown(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
