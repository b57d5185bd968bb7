/**
 * @module @platform/control-plane
 * The control plane's public entry: the factory, its configuration, and the seams later features
 * and tests build on (storage, key-value store, clock, logger, the API builder, the reach rule).
 */
export { createControlPlane, type ControlPlane, type ControlPlaneDeps } from './app.ts';
export { CONFIG_VARIABLES, ConfigError, loadConfig, logFormatOf, runtimeChildEnv, type Config, type ConfigVariable } from './core/config/config.ts';
export { createManualClock, systemClock, type Clock, type ManualClock } from './core/clock/clock.ts';
export { createLogger, type Logger } from './core/log/logger.ts';
export { openTelemetry, type ControlPlaneTelemetry } from './core/telemetry/telemetry.ts';
export type { Db, QueryResult } from './core/db/db.ts';
export { createPgDb } from './core/db/pg-db.ts';
export { createPgliteDb } from './core/db/pglite-db.ts';
export { migrate } from './core/db/migrate.ts';
export type { Kv, HitResult } from './core/kv/kv.ts';
export { createMemoryKv } from './core/kv/memory-kv.ts';
export { createRedisKv } from './core/kv/redis-kv.ts';
export { createSecrets, type Secrets } from './core/crypto/secrets.ts';
export { createApi, type Api, type AuthScheme } from './core/http/api.ts';
export { readJson } from './core/http/read-json.ts';
export { canReach, type ReachInput, type InstallKind } from './workspace/reach/reach.ts';
export { newId } from './core/ids/ids.ts';
