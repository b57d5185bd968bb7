/**
 * What one click costs the database (issue 24 item 3, decisions/clicks.md), counted on the real
 * control plane over real HTTP: three statements (the block's read, the group-committed result
 * write and the batched delivery record), and a result write that changes no indexed column, so
 * Postgres can keep it on its page (a HOT update) instead of writing an entry in every index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { click, refOf, startBoardWorld, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

// Columns a click's write sets (blocks/records/store.ts, `writeActionResults`); `final` only when
// the action ends the block, which is the block's last write.
const WRITTEN = ['state', 'tree', 'actions', 'revision', 'tree_hash', 'summary', 'rendered_at', 'version', 'render_due_at', 'final_summary', 'final_at', 'error', 'open_link', 'updated_at', 'pending'];

describe('a click in the database', () => {
  it('sends three statements: the read, the result write and the delivery record', async () => {
    const { id } = await w.insert();
    await click(w.ws.client, id, 'Add one');
    await w.settled();
    const block = (await w.ws.client.get(`/blocks/${id}`)).body.block;
    const ref = refOf(block.tree, 'Add one');
    const db = w.stack.db;
    const sent: string[] = [];
    const query = db.query.bind(db);
    db.query = ((sql: string, params?: unknown[]) => {
      sent.push(sql.replace(/\s+/g, ' ').trim());
      return query(sql, params);
    }) as typeof db.query;
    try {
      const res = await w.ws.client.post(`/blocks/${id}/click`, { revision: block.revision, ref });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await w.settled();
    } finally {
      db.query = query;
    }
    const kinds = sent.map((sql) => (/^select .* from blocks b/.test(sql) ? 'read' : /update blocks b set state/.test(sql) ? 'write' : /insert into deliveries/.test(sql) ? 'record' : sql.slice(0, 80)));
    // The record is batched on a timer (or by `settled`), so it may come before or after the write.
    expect(kinds.filter((k) => k !== 'record')).toEqual(['read', 'write']);
    expect(kinds.filter((k) => k === 'record')).toHaveLength(1);
  });

  it('writes no column an index of blocks holds, so the write can stay on its page', async () => {
    const { rows } = await w.stack.db.query<{ name: string; def: string }>(
      `select i.relname as name, pg_get_indexdef(x.indexrelid) as def from pg_index x join pg_class i on i.oid = x.indexrelid where x.indrelid = 'blocks'::regclass`);
    expect(rows.length).toBeGreaterThan(0);
    for (const { name, def } of rows) {
      for (const column of WRITTEN) expect(def, `${name} holds ${column}`).not.toMatch(new RegExp(`\\b${column}\\b`));
    }
  });
});
