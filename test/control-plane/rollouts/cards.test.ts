/**
 * Issue 25 item 2 across a rollout (docs/decisions/blocks.md, "Cards across versions"): a card
 * drawn by version 1 (Ping and Close) is clicked after a rollout moved its install to version 2,
 * which dropped Close. Ping, kept, is applied by version 2; Close tells the member and the card is
 * drawn again by version 2. After the platform's abort the install runs version 1 again: a card
 * drawn by version 2 still works (Ping is applied by version 1). Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refOf, view } from '../blocks/setup.ts';
import { startRolloutWorld, type RolloutWorld } from './setup.ts';

let w: RolloutWorld;
let installId: string;

beforeAll(async () => {
  w = await startRolloutWorld({ slug: 'cards', workspaces: 1 });
  installId = w.installs[0]!.installId;
}, 60_000);
afterAll(async () => w?.stop());

async function click(blockId: string, drawn: { tree: unknown; revision: number }, label: string) {
  const res = await w.workspaceOf(installId).client.post(`/blocks/${blockId}/click`, { revision: drawn.revision, ref: refOf(drawn.tree, label) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('a card drawn by the version before a rollout', () => {
  let first: string;
  let second: string;
  let drawnByV1: { tree: unknown; revision: number };
  let secondByV1: { tree: unknown; revision: number };

  beforeAll(async () => {
    first = await w.card(installId);
    second = await w.card(installId);
    drawnByV1 = await view(w.workspaceOf(installId).client, first);
    secondByV1 = await view(w.workspaceOf(installId).client, second);
    expect(JSON.stringify(drawnByV1.tree)).toContain('Close');
    // ⌈10 % of 1⌉: the one install moves.
    const res = await w.publish('v2 lean', '?rollout=10');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await w.installVersion(installId)).toBe(2);
  });

  it('a kept action is applied by the version the rollout moved the install to', async () => {
    const out = await click(first, drawnByV1, 'Ping');
    expect(out).toMatchObject({ outcome: 'applied', block: { summary: 'v2 lean: v2 lean' } });
    expect(w.seen.at(-1)).toEqual({ installId, version: 2 });
  });

  it('a removed action tells the member, and the card is drawn again by that version', async () => {
    const out = await click(second, secondByV1, 'Close');
    expect(out.outcome).toBe('failed');
    expect(out.error.message).toContain('drawn again');
    expect(JSON.stringify(out.block.tree)).not.toContain('Close');
    secondByV1 = out.block;
  });

  it('after the platform aborts, the card drawn by the new version still works on the old one', async () => {
    w.throwing.add(2);
    w.stack.clock.advance(1_000);
    for (let i = 0; i < 20; i++) await w.insertCard(installId);
    await w.stack.controlPlane.blocks.settled();
    await w.stack.controlPlane.deliveries.interactive.flush();
    // Two evaluations at once (as two control planes would run them): one aborts, the other finds it ended.
    const both = await Promise.all([w.stack.controlPlane.rolloutEvaluator.evaluate(), w.stack.controlPlane.rolloutEvaluator.evaluate()]);
    expect(both.flat()).toHaveLength(1);
    expect((await w.stack.db.query("select count(*)::int as n from mail_messages where subject like 'Rollout of %'")).rows[0]).toEqual({ n: 1 });
    expect(await w.installVersion(installId)).toBe(1);
    const out = await click(second, secondByV1, 'Ping');
    expect(out).toMatchObject({ outcome: 'applied', block: { summary: 'v1: v1' } });
    expect(w.seen.at(-1)).toEqual({ installId, version: 1 });
    // Version 1 draws its Close again.
    expect(JSON.stringify(out.block.tree)).toContain('Close');
  });
});
