/**
 * Reference records carry a revision that every write raises, so that a `reference.resolve`
 * racing a push cannot overwrite it (over real HTTP, with the Tracker fixture holding its resolve
 * answer while the test pushes: the race is played out in order, with no timers). A resolve sent
 * before a push loses, whether the push created the record or updated it; a resolve sent after a
 * push wins; a resolve racing a revalidate loses, so the record stays stale and the next view
 * resolves again; two items of one answer naming one object store the later one's fields.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cards, expectStatus, issueUrl, post, startReferencesWorld, type ReferencesWorld } from './setup.ts';

let w: ReferencesWorld;
beforeAll(async () => {
  w = await startReferencesWorld();
});
afterAll(async () => {
  await w?.stop();
});
beforeEach(() => {
  w.tracker.mode = 'normal';
});

const record = async (externalId: string) => {
  const { rows } = await w.stack.db.query<{ fields: any; version: string | null; stale: boolean; revision: string }>(
    'select fields, version::text as version, stale, revision::text as revision from reference_records where install_id = $1 and kind = $2 and external_id = $3',
    [w.installId, 'issue', externalId]);
  return rows[0];
};

/** Reads a message's cards while the app holds its resolve; runs `meanwhile` before the app answers. */
async function raced(messageId: string, meanwhile: () => Promise<void>): Promise<any[]> {
  const gate = w.tracker.hold();
  const reading = cards(w.member.client, messageId);
  await gate.received;
  await meanwhile();
  gate.release();
  return reading;
}

const push = async (externalId: string, fields: Record<string, unknown>, version: number) => {
  const res = await (await w.app()).put('/references', { kind: 'issue', externalId, fields, version });
  expectStatus(res, 200);
  return res.body;
};

describe('a resolve racing a push', () => {
  it('a push that creates the record while the first resolve is out wins; the card shows the push', async () => {
    const id = await post(w.ws.client, w.circleId, `See ${issueUrl('300')}`);
    const [card] = await raced(id, async () => {
      expect(await push('300', { title: 'Pushed while resolving', summary: 'From the push' }, 1)).toEqual({ applied: true, version: 1 });
    });
    expect(card.access).toBe('granted');
    expect(card.reference).toMatchObject({ externalId: '300', title: 'Pushed while resolving', summary: 'From the push', version: 1 });
    const stored = await record('300');
    expect(stored).toMatchObject({ fields: { title: 'Pushed while resolving' }, version: '1' });
    expect(card.reference.revision).toBe(Number(stored!.revision));
    // The link still points at the record: the next view reads it without a delivery.
    const resolves = w.tracker.resolves.length;
    expect((await cards(w.member.client, id))[0].reference.title).toBe('Pushed while resolving');
    expect(w.tracker.resolves.length).toBe(resolves);
  });

  it('a push that updates a revalidated record while its resolve is out wins, and the record stays stale', async () => {
    const id = await post(w.ws.client, w.circleId, `See ${issueUrl('301')}`);
    const first = (await cards(w.member.client, id))[0].reference;
    expect(first).toMatchObject({ title: 'Issue 301 #1', version: null });
    expectStatus(await (await w.app()).post('/references/revalidate', { kind: 'issue', externalId: '301' }), 200);
    const afterRevalidate = Number((await record('301'))!.revision);
    expect(afterRevalidate).toBeGreaterThan(first.revision);

    const [card] = await raced(id, async () => {
      expect(await push('301', { title: 'Pushed' }, 2)).toEqual({ applied: true, version: 2 });
    });
    expect(card.reference).toMatchObject({ title: 'Pushed', summary: 'Open issue 301', version: 2 });
    expect(card.reference.revision).toBeGreaterThan(afterRevalidate);
    expect((await record('301'))!.stale).toBe(true);

    // Stale still: the next view resolves again, and that resolve (sent after the push) applies.
    const next = (await cards(w.member.client, id))[0].reference;
    expect(next).toMatchObject({ title: 'Issue 301 #3', version: 2 });
    expect(next.revision).toBeGreaterThan(card.reference.revision);
    expect((await record('301'))!.stale).toBe(false);
  });

  it('a push not applied (an older version) does not make the resolve lose', async () => {
    const id = await post(w.ws.client, w.circleId, `See ${issueUrl('302')}`);
    await cards(w.member.client, id);
    expect(await push('302', { title: 'Version 5' }, 5)).toEqual({ applied: true, version: 5 });
    expectStatus(await (await w.app()).post('/references/revalidate', { kind: 'issue', externalId: '302' }), 200);
    const [card] = await raced(id, async () => {
      expect(await push('302', { title: 'Too old' }, 4)).toEqual({ applied: false, version: 5 });
    });
    expect(card.reference).toMatchObject({ title: 'Issue 302 #2', version: 5 });
    expect((await record('302'))!.stale).toBe(false);
  });

  it('a resolve racing a revalidate loses: the record stays stale and is resolved again on the next view', async () => {
    const id = await post(w.ws.client, w.circleId, `See ${issueUrl('303')}`);
    await cards(w.member.client, id);
    expectStatus(await (await w.app()).post('/references/revalidate', { kind: 'issue', externalId: '303' }), 200);
    const [card] = await raced(id, async () => {
      expectStatus(await (await w.app()).post('/references/revalidate', { kind: 'issue', externalId: '303' }), 200);
    });
    expect(card.reference.title).toBe('Issue 303 #1');
    expect((await record('303'))!.stale).toBe(true);
    expect((await cards(w.member.client, id))[0].reference.title).toBe('Issue 303 #3');
  });
});

describe('revisions', () => {
  it('increase with every write and are the same on every card of a record', async () => {
    const a = await post(w.ws.client, w.circleId, `A ${issueUrl('304')}`);
    const b = await post(w.ws.client, w.circleId, `B ${issueUrl('304', 'other')}`);
    const r0 = (await cards(w.member.client, a))[0].reference.revision;
    // B's link is new: its resolve is a write to the shared record, which A's card then shows too.
    const r1 = (await cards(w.member.client, b))[0].reference.revision;
    expect(r1).toBeGreaterThan(r0);
    expect((await cards(w.member.client, a))[0].reference.revision).toBe(r1);
    await push('304', { title: 'One' }, 1);
    const r2 = (await cards(w.member.client, b))[0].reference.revision;
    expect(r2).toBeGreaterThan(r1);
    await push('304', { title: 'Not applied' }, 1);
    expect((await cards(w.member.client, a))[0].reference.revision).toBe(r2);
  });

  it('two links in one message to one object: one delivery, both cards show the later item\'s fields', async () => {
    const id = await post(w.ws.client, w.circleId, `${issueUrl('305')} and ${issueUrl('305', 'other')}`);
    const [first, second] = await cards(w.member.client, id);
    expect(first.reference).toEqual(second.reference);
    expect(first.reference.title).toBe('Issue 305 #2');
  });
});
