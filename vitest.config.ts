import { defineConfig } from 'vitest/config';

// Tests load isolated-vm, which on Node 24 needs --no-node-snapshot in every worker process.
// Two cores here: two forks at most, so timing-sensitive runtime tests are not starved.
// Suites that need real PostgreSQL or Redis get them even where DATABASE_URL / REDIS_URL are unset:
// the global setup starts private servers from the machine's binaries (test/helpers/services.global.ts).
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/services.global.ts'],
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
  },
});
