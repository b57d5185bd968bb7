/**
 * Rendering (spec, "staleAfter" and revalidation): `block.render` when a block is viewed after its
 * `staleAfter` (600 s for the board), results cached per revision, and a failing render keeping the
 * last good tree with an inline error.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROKEN_RENDER } from '../../fixtures/blocks/server.ts';
import { click, startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

const rendersOf = (id: string) => w.board.of('block.render').filter((d) => d.data.block.id === id);

it('renders when viewed after staleAfter, once; the result is cached for the revision', async () => {
  const { id } = await w.insert();
  await view(w.ws.client, id);
  w.stack.clock.advance(599_000);
  await view(w.ws.client, id);
  expect(rendersOf(id)).toHaveLength(0);

  w.stack.clock.advance(2_000);
  const [a, b] = await Promise.all([view(w.ws.client, id), view(w.member.client, id)]);
  expect(rendersOf(id)).toHaveLength(1);
  expect(rendersOf(id)[0]!.actor).toBeUndefined();
  expect(rendersOf(id)[0]!.data).toEqual({ mode: 'interactive', block: { id, type: 'board', props: { title: 'Board' }, state: { count: 0, note: '' }, revision: 1, version: 1 } });
  // The same tree: same revision, so references members hold stay valid.
  expect([a.revision, b.revision]).toEqual([1, 1]);
  await view(w.ws.client, id);
  expect(rendersOf(id)).toHaveLength(1);
  // The next render is due staleAfter later.
  w.stack.clock.advance(601_000);
  await view(w.ws.client, id);
  expect(rendersOf(id)).toHaveLength(2);
});

it('a changed tree from a render is a new revision', async () => {
  const { id } = await w.insert();
  await (await w.app()).patch(`/blocks/${id}`, { state: { count: 3 } });
  await w.settled();
  const shown = await view(w.ws.client, id);
  expect(shown).toMatchObject({ revision: 2, summary: 'Board: 3' });
  expect(rendersOf(id)).toHaveLength(1);
});

it('a failing render keeps the last good tree, shows everyone an inline error, and tries again a minute later', async () => {
  const { id } = await w.insert({ title: BROKEN_RENDER });
  const before = await view(w.ws.client, id);
  w.stack.clock.advance(601_000);
  const failed = await view(w.member.client, id);
  expect(failed.tree).toEqual(before.tree);
  expect(failed.revision).toBe(before.revision);
  expect(failed.error?.message).toMatch(/could not be read/);
  expect((await view(w.ws.client, id)).error).toEqual(failed.error);
  expect(rendersOf(id)).toHaveLength(1);
  w.stack.clock.advance(30_000);
  await view(w.ws.client, id);
  expect(rendersOf(id)).toHaveLength(1);
  w.stack.clock.advance(31_000);
  await view(w.ws.client, id);
  expect(rendersOf(id)).toHaveLength(2);
  // Actions still work on the last good tree; their own answer draws the block again.
  const out = await click(w.ws.client, id, 'Add one');
  expect(out).toMatchObject({ outcome: 'applied', block: { error: null, summary: `${BROKEN_RENDER}: 1` } });
});
