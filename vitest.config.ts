import { defineConfig } from 'vitest/config';

// Tests load isolated-vm, which on Node 24 needs --no-node-snapshot in every worker process.
// Two cores here: two forks at most, so timing-sensitive runtime tests are not starved.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
  },
});
