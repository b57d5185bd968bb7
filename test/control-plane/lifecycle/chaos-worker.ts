/**
 * A control plane process for the chaos test: real Postgres (one schema), delivery loops running,
 * and a clock that runs `CHAOS_TIME_SCALE` times faster than real time from `CHAOS_EPOCH`, so the
 * retry schedule (1 minute and up) and the lease pass in a bounded test. It runs until killed.
 * Not a test file: chaos.test.ts starts it and kills it with SIGKILL mid-batch.
 */
import { createControlPlane, createLogger, createMemoryKv, createPgDb, loadConfig, type Clock } from '@platform/control-plane';

const env = process.env;
const epoch = Number(env.CHAOS_EPOCH);
const scale = Number(env.CHAOS_TIME_SCALE);
const started = Date.now();
const clock: Clock = { now: () => epoch + (Date.now() - started) * scale };

const config = loadConfig({
  NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', DATA_DIR: env.CHAOS_DATA_DIR,
  DATABASE_URL: env.DATABASE_URL, MASTER_KEY: env.MASTER_KEY, RUNTIME_SECRET: 'chaos-runtime-secret-0123456789', OPERATOR_TOKEN: 'chaos-operator-token-0123',
  OUTBOX_WORKERS: '2', OUTBOX_BATCH_SIZE: '100', OUTBOX_CONCURRENCY: '50', OUTBOX_POLL_MS: '100', OUTBOX_LEASE_MS: env.CHAOS_LEASE_MS,
});
const db = createPgDb({ connectionString: env.DATABASE_URL!, schema: env.CHAOS_SCHEMA!, max: 6 });
const controlPlane = createControlPlane({ config, logger: createLogger(config), db, kv: createMemoryKv({ clock }), clock });
await controlPlane.start();
process.send?.('ready');
