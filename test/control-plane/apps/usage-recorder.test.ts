/**
 * The control plane's own usage counts (apps/usage/recorder.ts) against a real database: counts
 * added in memory are written once; a write that fails (the table renamed away meanwhile) keeps
 * them, merged with what came after, for the next write; past `maxRows` waiting, the oldest minutes
 * go. Read back through the same store the API reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsageRecorder } from '../../../control-plane/src/apps/usage/recorder.ts';
import { readSeries } from '../../../control-plane/src/apps/usage/store.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let appId: string;
beforeAll(async () => {
  stack = await startStack();
  const ws = await stack.createWorkspace();
  const created = await ws.client.post('/apps', { name: 'Recorded', slug: 'recorded', hosting: 'self', endpoint: { url: 'https://recorded.example/platform' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const MINUTE = 60_000;

async function totals(from: number, to: number) {
  const rows = await readSeries(stack.db, [appId], 'minute', new Date(from), new Date(to), { kind: 'all' });
  return rows.map((r) => ({ at: r.bucket.getTime(), reads: Number(r.storage_reads), writes: Number(r.storage_writes), delivered: Number(r.deliveries_succeeded) }));
}

describe('the usage recorder', () => {
  it('writes what it holds once, and keeps it through a failed write', async () => {
    const start = Math.floor(stack.clock.now() / MINUTE) * MINUTE + 10 * MINUTE;
    stack.clock.set(start);
    const recorder = createUsageRecorder({ db: stack.db, clock: stack.clock, logger: stack.logger });
    recorder.add(appId, 'ins_a', { storageReads: 2 });
    recorder.add(appId, 'ins_a', { storageReads: 1, storageWrites: 1 });
    await stack.db.exec('alter table app_usage rename to app_usage_away');
    try {
      await recorder.flush();
    } finally {
      await stack.db.exec('alter table app_usage_away rename to app_usage');
    }
    recorder.add(appId, 'ins_a', { deliveriesSucceeded: 1 });
    await recorder.flush();
    await recorder.flush();
    expect(await totals(start, start + MINUTE)).toEqual([{ at: start, reads: 3, writes: 1, delivered: 1 }]);
  });

  it('holds at most maxRows while writes fail, giving up the oldest minutes', async () => {
    const start = Math.floor(stack.clock.now() / MINUTE) * MINUTE + 10 * MINUTE;
    const recorder = createUsageRecorder({ db: stack.db, clock: stack.clock, logger: stack.logger, maxRows: 2 });
    for (let m = 0; m < 3; m++) {
      stack.clock.set(start + m * MINUTE);
      recorder.add(appId, 'ins_b', { storageWrites: 1 });
    }
    await stack.db.exec('alter table app_usage rename to app_usage_away');
    try {
      await recorder.flush();
    } finally {
      await stack.db.exec('alter table app_usage_away rename to app_usage');
    }
    await recorder.flush();
    expect((await totals(start, start + 3 * MINUTE)).map((r) => [r.at, r.writes])).toEqual([[start + MINUTE, 1], [start + 2 * MINUTE, 1]]);
  });
});
