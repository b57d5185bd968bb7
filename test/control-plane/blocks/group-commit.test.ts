/**
 * Group commit of clicks (blocks/records/result-writer.ts on core/db/group-commit.ts), on real
 * Postgres: the action results of concurrent clicks are written together, one statement per group,
 * and a member hears of a click only once its result is durable; per block the results apply in
 * the order they arrived; a write the database refuses fails only its own click. Over HTTP (the
 * board fixture app) and against the writer itself, where groups are made deterministically (every
 * write submitted before the first one finishes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@platform/control-plane';
import { createResultWriter } from '../../../control-plane/src/blocks/records/result-writer.ts';
import { findBlock, type ResultWrite } from '../../../control-plane/src/blocks/records/store.ts';
import { refOf, startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld({ db: 'postgres' });
});
afterAll(async () => {
  await w?.stop();
});

/** The block as stored now (read apart from the control plane's answer). */
const stored = async (id: string) =>
  (await w.stack.db.query<{ version: number; revision: number; state: { count: number } }>('select version, revision, state from blocks where id = $1', [id])).rows[0]!;

/** `db` whose statements writing action results are counted. */
function counting(db: Db): { db: Db; groups: () => number } {
  let groups = 0;
  return {
    db: { ...db, query: (sql, params) => {
      if (sql.includes('jsonb_to_recordset')) groups++;
      return db.query(sql, params);
    } },
    groups: () => groups,
  };
}

/** Clicks "Add one" on a block at `revision`; checks, as the answer arrives, that what it says is stored. */
async function clickDurably(id: string, revision: number, ref: string) {
  const res = await w.ws.client.post(`/blocks/${id}/click`, { revision, ref });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.outcome).toBe('applied');
  const now = await stored(id);
  expect(now.version).toBeGreaterThanOrEqual(res.body.block.version);
  expect(now.state.count).toBeGreaterThanOrEqual(Number(/Board: (\d+)/.exec(res.body.block.summary)![1]));
  return res.body.block as { version: number; revision: number; summary: string };
}

describe('over HTTP', () => {
  it('many blocks clicked at once: every answer\'s state is durable when it arrives, and every click counts', async () => {
    const BLOCKS = 12;
    const CLICKS = 4;
    const blocks = await Promise.all(Array.from({ length: BLOCKS }, () => w.insert()));
    await Promise.all(blocks.map(async ({ id }) => {
      let shown = await view(w.ws.client, id);
      const ref = refOf(shown.tree, 'Add one');
      for (let i = 0; i < CLICKS; i++) shown = await clickDurably(id, shown.revision, ref);
      expect(shown.summary).toBe(`Board: ${CLICKS}`);
    }));
    for (const { id } of blocks) expect((await stored(id)).state.count).toBe(CLICKS);
  });

  it('one block clicked many times at once: each result applied once, in turn, each durable when answered', async () => {
    const { id } = await w.insert();
    const before = await view(w.ws.client, id);
    const ref = refOf(before.tree, 'Add one');
    const N = 10;
    // All at the revision the member saw: the app answers none before it has all of them (so every
    // click read the block before any result was written), each from the state it was sent.
    let arrived = 0;
    let all!: () => void;
    const together = new Promise<void>((resolve) => {
      all = resolve;
    });
    w.board.beforeAnswer = async (d) => {
      if (d.type !== 'block.action' || d.data.block.id !== id) return;
      if (++arrived === N) all();
      await together;
    };
    const answers = await Promise.all(Array.from({ length: N }, () => clickDurably(id, before.revision, ref))).finally(() => {
      w.board.beforeAnswer = null;
    });
    const versions = answers.map((a) => a.version).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: N }, (_, i) => before.version + 1 + i));
    expect((await stored(id)).version).toBe(before.version + N);
  });
});

describe('the result writer', () => {
  const write = (count: number | string, at: Date): ResultWrite => ({
    state: { count, note: '' }, tree: null, versionBump: 1, renderDueAt: 'keep', final: null, memberId: w.ws.owner.id, openLink: null, at,
  });

  it('writes the results of concurrent clicks together: one statement for all that waited', async () => {
    const ids = (await Promise.all(Array.from({ length: 10 }, () => w.insert()))).map((b) => b.id as string);
    const rows = await Promise.all(ids.map(async (id) => (await findBlock(w.stack.db, id))!));
    const { db, groups } = counting(w.stack.db);
    const writer = createResultWriter({ db });
    const at = new Date(w.stack.clock.now());
    const written = await Promise.all(rows.map(async (row, i) => {
      const out = await writer.write(row, write(i + 1, at));
      // Durable when it resolves.
      expect((await stored(row.id)).state.count).toBe(i + 1);
      return out;
    }));
    // The first went alone (nothing was being written); the nine others waited for it and went together.
    expect(groups()).toBe(2);
    expect(written.map((b) => b!.state.count)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(written.map((b) => b!.version)).toEqual(rows.map((r) => r.version + 1));
  });

  it('keeps the order per block: a block\'s results apply in the order they came, one group each', async () => {
    const [{ id }, other] = await Promise.all([w.insert(), w.insert()]);
    const row = (await findBlock(w.stack.db, id))!;
    const otherRow = (await findBlock(w.stack.db, other.id))!;
    const { db, groups } = counting(w.stack.db);
    const writer = createResultWriter({ db });
    const at = new Date(w.stack.clock.now());
    const written = await Promise.all([
      ...[1, 2, 3, 4, 5].map((n) => writer.write(row, write(n, at))),
      writer.write(otherRow, write(9, at)),
    ]);
    expect(written.slice(0, 5).map((b) => b!.version)).toEqual([1, 2, 3, 4, 5].map((n) => row.version + n));
    expect((await stored(id))).toMatchObject({ version: row.version + 5, state: { count: 5 } });
    expect((await stored(other.id)).state.count).toBe(9);
    // The other block's result rode with the block's second one.
    expect(groups()).toBe(5);
  });

  it('a write the database refuses fails only its own click; the rest of its group is written', async () => {
    const ids = (await Promise.all(Array.from({ length: 4 }, () => w.insert()))).map((b) => b.id as string);
    const rows = await Promise.all(ids.map(async (id) => (await findBlock(w.stack.db, id))!));
    const writer = createResultWriter({ db: w.stack.db });
    const at = new Date(w.stack.clock.now());
    // jsonb refuses the NUL character: the group holding it is refused as a whole, then written one by one.
    const outcomes = await Promise.allSettled(rows.map((row, i) => writer.write(row, write(i === 2 ? 'a\u0000b' : i + 1, at))));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((await stored(ids[1]!)).state.count).toBe(2);
    expect((await stored(ids[3]!)).state.count).toBe(4);
    expect(await stored(ids[2]!)).toMatchObject({ version: rows[2]!.version, state: { count: 0 } });
  });

  it('answers undefined for a block that became final meanwhile, and writes nothing to it', async () => {
    const [{ id }, other] = await Promise.all([w.insert(), w.insert()]);
    const row = (await findBlock(w.stack.db, id))!;
    const otherRow = (await findBlock(w.stack.db, other.id))!;
    await w.stack.db.query('update blocks set final = true where id = $1', [id]);
    const writer = createResultWriter({ db: w.stack.db });
    const at = new Date(w.stack.clock.now());
    const [first, ...rest] = await Promise.all([writer.write(otherRow, write(3, at)), writer.write(row, write(7, at)), writer.write(otherRow, write(4, at))]);
    expect(first!.state.count).toBe(3);
    expect(rest[0]).toBeUndefined();
    expect(rest[1]!.state.count).toBe(4);
    expect((await stored(id)).state.count).toBe(0);
  });
});
