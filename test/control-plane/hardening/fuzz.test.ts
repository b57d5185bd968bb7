/**
 * The schema-driven fuzz run, bounded for CI (issue 13, item 4): a few thousand requests over every
 * operation of both OpenAPI documents, over real HTTP, against a world where most ids exist. No 5xx;
 * every 4xx carries `_tag`, `message` and `path`; every status is one the operation documents.
 * The long run is the same test with more requests: `npm run fuzz` (FUZZ_REQUESTS=100000; FUZZ_SEED
 * picks another sequence), which prints the report; its figures are in docs/decisions/hardening.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Bounded for CI by default; the long run sets these (package.json `fuzz`).
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 13);
import type { BoardWorld } from '../blocks/setup.ts';
import { runFuzz, type FuzzTarget } from '../../fuzz/openapi-fuzz.ts';
import { startFuzzWorld } from '../../fuzz/world.ts';

let world: BoardWorld;
let target: FuzzTarget;
beforeAll(async () => {
  ({ world, target } = await startFuzzWorld());
});
afterAll(async () => {
  await world?.stop();
});

describe('fuzz run over both OpenAPI documents', () => {
  it('answers every request with a documented status; no 5xx; every 4xx tagged', { timeout: 120_000 + REQUESTS * 20 }, async () => {
    const report = await runFuzz(target, {
      requests: REQUESTS, seed: SEED, concurrency: 8,
      ...(REQUESTS > 10_000 ? { onProgress: (done: number) => console.log(`fuzz: ${done} requests`) } : {}),
    });
    if (REQUESTS > 10_000) console.log(`fuzz report: ${JSON.stringify({ ...report, failures: report.failures.slice(0, 20) }, null, 1)}`);
    expect(report.operations).toBeGreaterThan(100);
    expect(report.requests).toBe(REQUESTS);
    // Every operation of both documents was called (test/control-plane/hardening/fuzz-coverage.test.ts: none is left out of them).
    expect(Object.keys(report.byOperation)).toHaveLength(report.operations);
    expect(report.failures).toEqual([]);
    // The run reaches handlers, not only validation: some requests succeed.
    expect(Object.entries(report.byStatus).some(([status, n]) => Number(status) < 300 && n > 0)).toBe(true);
  });
});
