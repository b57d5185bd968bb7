/**
 * Apps that answer badly (spec, rules 7 and 8, and States): garbage, 2 MB, a redirect, a 500, a
 * 202 with a body, an answer outside the result schema, and nothing for six seconds. Each keeps
 * the last good tree with an inline error, never retries, and is recorded for the Deliveries page
 * with its reason. Also: a delivery that cannot be made at all. Internal addresses, in every mode:
 * test/control-plane/hardening/endpoint-guard.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { click, startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

async function recorded(deliveryId: string) {
  await w.settled();
  const res = await w.ws.client.get(`/apps/${w.appId}/deliveries/${deliveryId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { delivery: { class: string; type: string; outcome: string; attempts: number; lastStatus: number | null; lastError: string | null; installId: string }; attempts: Array<{ durationMs: number | null }> };
}

/** Clicks a raw-* item and checks what every failure shares; answers the delivery record. */
async function failingClick(label: string) {
  const { id } = await w.insert();
  const before = await view(w.ws.client, id);
  const sent = w.board.deliveries.length;
  const out = await click(w.ws.client, id, label);
  expect(out.outcome).toBe('failed');
  expect(out.block.tree).toEqual(before.tree);
  expect(out.block).toMatchObject({ revision: before.revision, version: before.version, error: { message: out.error.message } });
  // Never retried: exactly one delivery reached the app.
  const reached = w.board.deliveries.slice(sent);
  expect(reached.map((d) => d.type)).toEqual(['block.action']);
  const record = await recorded(reached[0]!.id);
  expect(record.delivery).toMatchObject({ class: 'interactive', type: 'block.action', outcome: 'failed', attempts: 1, installId: w.installId });
  return { out, record: record.delivery };
}

describe('bad answers', () => {
  it('garbage: not JSON', async () => {
    const { out, record } = await failingClick('raw-garbage');
    expect(out.error.message).toMatch(/could not be read/);
    expect(record).toMatchObject({ lastStatus: 200, lastError: expect.stringMatching(/^invalid-json \(PlatformAppResponseInvalidError\)/) });
  });

  it('2 MB: refused past 1 MB', async () => {
    const { record } = await failingClick('raw-huge');
    expect(record.lastError).toMatch(/^too-large/);
  });

  it('a redirect is not followed', async () => {
    const { record } = await failingClick('raw-redirect');
    expect(record).toMatchObject({ lastStatus: 302, lastError: expect.stringMatching(/^http-status/) });
    expect(w.board.redirectsFollowed).toBe(0);
  });

  it('a 500', async () => {
    expect((await failingClick('raw-500')).record).toMatchObject({ lastStatus: 500, lastError: expect.stringMatching(/^http-status/) });
  });

  it('a 202 with a body fails the run (a deferred block action answers an empty body)', async () => {
    const { out, record } = await failingClick('raw-bad-deferral');
    expect(out.block.pending).toBeNull();
    expect(record.lastError).toMatch(/^deferral-invalid \(PlatformAppResponseInvalidError\)/);
  });

  it('an answer outside the result schema is PlatformAppResponseInvalidError on our side', async () => {
    const { record } = await failingClick('raw-schema');
    expect(record.lastError).toMatch(/^response-invalid \(PlatformAppResponseInvalidError\): .*notice\.text/);
  });

  it('nothing for six seconds: given up after five', { timeout: 20_000 }, async () => {
    const { out, record } = await failingClick('raw-hang');
    // A silent endpoint answers what a refused or unreachable one does (no port-scan oracle).
    expect(out.error.message).toBe("The app didn't answer. Try again.");
    expect(record.lastError).toBe("unreachable: the app's endpoint could not be reached");
  });
});

describe('deliveries that cannot be made', () => {
  it('an uninstalled app: the member sees why, nothing is sent', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    await w.stack.db.query(`update installs set status = 'suspended' where id = $1`, [w.installId]);
    try {
      const sent = w.board.deliveries.length;
      const out = await click(w.ws.client, id, 'Add one');
      expect(out).toMatchObject({ outcome: 'failed', error: { message: expect.stringMatching(/no longer installed/) } });
      expect(out.block.tree).toEqual(seen.tree);
      expect(w.board.deliveries.length).toBe(sent);
    } finally {
      await w.stack.db.query(`update installs set status = 'active' where id = $1`, [w.installId]);
    }
  });

  it('a development install without a connected relay', async () => {
    const { id } = await w.insert();
    await w.stack.db.query(`update installs set kind = 'dev' where id = $1`, [w.installId]);
    try {
      const out = await click(w.ws.client, id, 'Add one');
      expect(out).toMatchObject({ outcome: 'failed', error: { message: expect.stringMatching(/relay/) } });
    } finally {
      await w.stack.db.query(`update installs set kind = 'workspace' where id = $1`, [w.installId]);
    }
  });
});
