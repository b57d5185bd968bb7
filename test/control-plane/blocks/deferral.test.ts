/**
 * Deferral (spec, rule 5 and States): an action answered `202` leaves its control pending until the
 * app patches the block with the interaction token, within 15 minutes (the injected clock moves
 * time; nothing sleeps).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { click, refOf, startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

const MINUTE = 60_000;

async function deferOne() {
  const { id } = await w.insert();
  const out = await click(w.member.client, id, 'Later');
  const token: string = w.board.of('block.action').at(-1)!.data.interactionToken;
  return { id, out, token };
}

it('a 202 leaves the control pending for everyone; the app finishes within 15 minutes with the interaction token', async () => {
  const start = w.stack.clock.now();
  const { id, out, token } = await deferOne();
  const ref = refOf(out.block.tree, 'Later');
  expect(out.outcome).toBe('pending');
  expect(out.block.pending).toEqual({ ref, since: new Date(start).toISOString(), until: new Date(start + 15 * MINUTE).toISOString() });
  expect((await view(w.ws.client, id)).pending).toMatchObject({ ref });
  // The same control cannot be clicked again while it is pending.
  const again = await w.ws.client.post(`/blocks/${id}/click`, { revision: out.block.revision, ref });
  expect(again.status).toBe(409);

  w.stack.clock.advance(14 * MINUTE);
  const app = w.stack.v0(token);
  expect((await app.get(`/blocks/${id}`)).body).toMatchObject({ id, state: { count: 0 } });
  const patched = await app.patch(`/blocks/${id}`, { state: { count: 7 } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  expect(patched.body).toMatchObject({ state: { count: 7, note: '' }, version: 2 });
  await w.settled();
  const shown = await view(w.member.client, id);
  expect(shown).toMatchObject({ pending: null, error: null, summary: 'Board: 7' });
});

it('after 15 minutes the interaction token is refused and the member who clicked sees that the app did not finish', async () => {
  const { id, token } = await deferOne();
  w.stack.clock.advance(15 * MINUTE + 1_000);
  const late = await w.stack.v0(token).patch(`/blocks/${id}`, { state: { count: 1 } });
  expect(late.status).toBe(401);
  expect(late.body._tag).toBe('PlatformAppInteractionExpiredError');
  const clicker = await view(w.member.client, id);
  expect(clicker.pending).toBeNull();
  expect(clicker.error?.message).toMatch(/didn't finish in time/);
  expect((await view(w.ws.client, id)).error).toBeNull();
  // The install token still works (spec: "use an install token").
  expect((await (await w.app()).patch(`/blocks/${id}`, { state: { count: 1 } })).status).toBe(200);
});

it('an interaction token reaches only the block its action ran on', async () => {
  const { token } = await deferOne();
  const other = await w.insert();
  const app = w.stack.v0(token);
  const res = await app.patch(`/blocks/${other.id}`, { state: { count: 3 } });
  expect(res.status).toBe(404);
  expect(res.body._tag).toBe('PlatformAppBlockNotFoundError');
  expect((await app.get(`/blocks/${other.id}`)).status).toBe(404);
  // Only block reads and updates: inserting is for install tokens.
  expect((await app.post('/blocks', { type: 'board', props: { title: 'x' }, circleId: w.circleId })).status).toBe(401);

});

it('the interaction token updates without blocks:write; the install token needs it', async () => {
  const { id, token } = await deferOne();
  await w.stack.db.query(`update installs set approved_scopes = approved_scopes - 'blocks:write' where id = $1`, [w.installId]);
  try {
    const withInstall = await (await w.app()).patch(`/blocks/${id}`, { state: { count: 2 } });
    expect(withInstall.status).toBe(403);
    expect(withInstall.body).toMatchObject({ _tag: 'PlatformAppScopeMissingError', scope: 'blocks:write' });
    expect((await w.stack.v0(token).put(`/blocks/${id}`, { state: { count: 9, note: 'replaced' } })).body).toMatchObject({ state: { count: 9, note: 'replaced' } });
  } finally {
    await w.stack.db.query(`update installs set approved_scopes = approved_scopes || '["blocks:write"]'::jsonb where id = $1`, [w.installId]);
  }
});
