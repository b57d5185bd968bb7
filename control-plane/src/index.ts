/**
 * @module @platform/control-plane
 * The control plane's public entry: the factory, its configuration, and the seams later features
 * and tests build on (storage, key-value store, clock, logger, the API builder, the reach rule).
 */
export { createControlPlane, type ControlPlane, type ControlPlaneDeps } from './app.ts';
export { CONFIG_VARIABLES, ConfigError, loadConfig, type Config, type ConfigVariable } from './config.ts';
export { createManualClock, systemClock, type Clock, type ManualClock } from './clock.ts';
export { createLogger, type Logger } from './log/logger.ts';
export type { Db, QueryResult } from './db/db.ts';
export { createPgDb } from './db/pg-db.ts';
export { createPgliteDb } from './db/pglite-db.ts';
export { migrate } from './db/migrate.ts';
export type { Kv, HitResult } from './kv/kv.ts';
export { createMemoryKv } from './kv/memory-kv.ts';
export { createRedisKv } from './kv/redis-kv.ts';
export { createSecrets, type Secrets } from './crypto/secrets.ts';
export { createApi, type Api, type AuthScheme } from './http/api.ts';
export { readJson } from './http/read-json.ts';
export { canReach, type ReachInput, type InstallKind } from './reach/reach.ts';
export { newId } from './ids.ts';
