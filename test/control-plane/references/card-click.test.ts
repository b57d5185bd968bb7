/**
 * Clicking buttons in a link card's block over real HTTP
 * (`POST /client/v1/messages/{messageId}/references/{referenceId}/click`), with the Tracker fixture
 * answering `block.action` for its `buttons` issue: the delivery the app receives, a new tree
 * shared by every occurrence, notice and openUrl for the member, `202` pending, a broken answer
 * failing with the card unchanged, notify and revalidate (state and final not applying to cards),
 * destructive confirms, stale revisions (409), a card written while the app answered keeping the
 * newer write, cards the member cannot see (404), and bad bodies (tagged 400).
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

/** The reference (`ref`) of the button or menu item labelled `label` in a member's view of a tree. */
function refOf(tree: any, label: string): string {
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node?.attrs?.label === label && typeof node.attrs.action?.ref === 'string') return node.attrs.action.ref;
    stack.push(...(node?.content ?? []));
  }
  throw new Error(`no button ${label}`);
}

/** A fresh message in the public circle linking the `buttons` issue (from its own org, so each test starts from a new link), with its card. */
async function buttonsCard(org = `o${Math.random().toString(36).slice(2, 8)}`): Promise<{ messageId: string; card: any; url: string }> {
  const url = issueUrl('buttons', org);
  const messageId = await post(w.ws.client, w.circleId, `Look ${url}`);
  const [card] = await cards(w.member.client, messageId);
  expect(card.access).toBe('granted');
  return { messageId, card, url };
}

const click = (messageId: string, referenceId: string, body: unknown, client = w.member.client) =>
  client.post(`/messages/${messageId}/references/${referenceId}/click`, body);

const record = async (id: string) => (await w.stack.db.query<{ fields: any; stale: boolean; revision: string }>(
  'select fields, stale, revision::text as revision from reference_records where id = $1', [id])).rows[0]!;

describe('audiences in a card\'s block', () => {
  it('a part whose audience leaves a member out is not in their card, and its reference is not theirs to click', async () => {
    const url = issueUrl(`vip-${w.member.id}`, `o${Math.random().toString(36).slice(2, 8)}`);
    const messageId = await post(w.ws.client, w.circleId, `Look ${url}`);
    const [mine] = await cards(w.member.client, messageId);
    const [theirs] = await cards(w.ws.client, messageId);
    expect(JSON.stringify(mine.reference.block.tree)).toContain('VIP only');
    expect(JSON.stringify(theirs.reference.block.tree)).not.toContain('VIP only');
    expect(JSON.stringify(theirs.reference.block.tree)).toContain('Everyone');
    const refused = await click(messageId, theirs.reference.id, { revision: theirs.reference.revision, ref: refOf(mine.reference.block.tree, 'VIP only') }, w.ws.client);
    expect(refused.status).toBe(400);
  });
});

describe('a click in a card\'s block', () => {
  it('delivers block.action for the card\'s record and applies the new tree to every occurrence; notice and openUrl are the member\'s', async () => {
    const { messageId, card, url } = await buttonsCard();
    const ref = card.reference;
    const other = await buttonsCard();
    expect(other.card.reference.id).toBe(ref.id);
    const before = other.card.reference.revision;

    const res = await click(messageId, ref.id, { revision: before, ref: refOf(ref.block.tree, 'Close') });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      outcome: 'applied', notice: { tone: 'success', text: 'Closed' }, fieldErrors: null, openUrl: 'https://tracker.example.com/closed', error: null,
      card: { url, access: 'granted', kind: 'issue', app: { id: w.appId, installId: w.installId } },
    });
    const after = res.body.card.reference;
    expect(after.block.tree.content[0].content[0]).toMatchObject({ type: 'uiHeaderTitle' });
    expect(JSON.stringify(after.block.tree)).toContain('Issue is Closed');
    expect(after.revision).toBeGreaterThan(before);
    expect(after.block).not.toHaveProperty('actions');

    const delivered = w.tracker.clicks.at(-1)!;
    expect(delivered.actor).toEqual({ memberId: w.member.id, name: 'Mia Member' });
    expect(delivered.data).toMatchObject({
      block: { id: ref.id, type: 'issue', props: {}, state: {}, revision: before, version: 0, reference: { kind: 'issue', externalId: 'buttons', url } },
      action: { name: 'close', args: { reason: 'done' } }, tallies: {}, invocationId: expect.any(String), interactionToken: expect.stringMatching(/^platint_/),
    });
    // Every occurrence shows the new tree.
    const seen = (await cards(w.ws.client, other.messageId))[0].reference;
    expect(seen.revision).toBe(after.revision);
    expect(JSON.stringify(seen.block.tree)).toContain('Issue is Closed');
  });

  it('a 202 answers pending and changes nothing', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    const res = await click(messageId, ref.id, { revision: ref.revision, ref: refOf(ref.block.tree, 'Later') });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ outcome: 'pending', error: null });
    expect(res.body.card.reference.revision).toBe(ref.revision);
  });

  it('an answer whose tree breaks the catalog fails: the card stays, the member gets the error text', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    const res = await click(messageId, ref.id, { revision: ref.revision, ref: refOf(ref.block.tree, 'Broken') });
    expectStatus(res, 200);
    expect(res.body.outcome).toBe('failed');
    expect(res.body.error).toEqual({ message: expect.any(String) });
    expect(res.body.card.reference).toEqual(ref);
    expect(Number((await record(ref.id)).revision)).toBe(ref.revision);
  });

  it('notify links to the card\'s URL; revalidate marks the record stale; state and final do not apply', async () => {
    const { messageId, card, url } = await buttonsCard();
    const ref = card.reference;
    const res = await click(messageId, ref.id, { revision: ref.revision, ref: refOf(ref.block.tree, 'Ping') });
    expectStatus(res, 200);
    expect(res.body.outcome).toBe('applied');
    const inbox = await w.member.client.get('/notifications');
    expect(inbox.body.items[0]).toMatchObject({ text: 'Pinged from a card', url, blockId: null, app: { id: w.appId } });
    const stored = await record(ref.id);
    expect(stored.stale).toBe(true);
    expect(stored.fields).not.toHaveProperty('state');
    expect(stored.fields).not.toHaveProperty('final');
    // The card is not locked: its next view resolves again and it still takes clicks.
    const again = (await cards(w.member.client, messageId))[0].reference;
    expectStatus(await click(messageId, ref.id, { revision: again.revision, ref: refOf(again.block.tree, 'Later') }), 200);
  });

  it('a destructive button needs confirmed: true (400 before anything is delivered)', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    const button = refOf(ref.block.tree, 'Delete');
    const clicks = w.tracker.clicks.length;
    for (const body of [{ revision: ref.revision, ref: button }, { revision: ref.revision, ref: button, confirmed: false }]) {
      const res = await click(messageId, ref.id, body);
      expectStatus(res, 400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
      expect(res.body.issues[0]).toMatchObject({ path: ['confirmed'], code: 'confirm_required' });
    }
    expect(w.tracker.clicks.length).toBe(clicks);
    const done = await click(messageId, ref.id, { revision: ref.revision, ref: button, confirmed: true });
    expect(done.body).toMatchObject({ outcome: 'applied', notice: { tone: 'warning', text: 'Deleted' } });
  });
});

describe('an app written with the authoring API', () => {
  it('answers a click in its card through defineReference({ actions }), in a menu item too', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    const res = await click(messageId, ref.id, { revision: ref.revision, ref: refOf(ref.block.tree, 'Assign') });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ outcome: 'applied', notice: { tone: 'info', text: 'Assigned buttons (me)' }, error: null });
    expect(JSON.stringify(res.body.card.reference.block.tree)).toContain('Issue is assigned to Mia Member');
  });
});

describe('revisions', () => {
  it('a click naming an older revision is 409 with the current one, and nothing is delivered', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    expectStatus(await (await w.app()).put('/references', { kind: 'issue', externalId: 'buttons', fields: { title: 'Pushed' }, version: Date.now() }), 200);
    const current = Number((await record(ref.id)).revision);
    const clicks = w.tracker.clicks.length;
    const res = await click(messageId, ref.id, { revision: ref.revision, ref: refOf(ref.block.tree, 'Close') });
    expectStatus(res, 409);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiConflictError', path: ['revision'], referenceId: ref.id, currentRevision: current });
    expect(w.tracker.clicks.length).toBe(clicks);
  });

  it('a push landing while the app answers a click stands: the click\'s tree is dropped', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    const gate = w.tracker.hold('click');
    const clicking = click(messageId, ref.id, { revision: ref.revision, ref: refOf(ref.block.tree, 'Close') });
    await gate.received;
    const pushed = await (await w.app()).put('/references', { kind: 'issue', externalId: 'buttons', fields: { title: 'Pushed meanwhile' }, version: Date.now() + 1 });
    expect(pushed.body.applied).toBe(true);
    gate.release();
    const res = await clicking;
    expectStatus(res, 200);
    expect(res.body.outcome).toBe('applied');
    expect(res.body.card.reference.title).toBe('Pushed meanwhile');
    expect(JSON.stringify(res.body.card.reference.block.tree)).not.toContain('Issue is Closed');
  });
});

describe('what the member may click', () => {
  it('a card of a message the member cannot see, of another message, of another workspace, or no such ids: 404', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    const body = { revision: ref.revision, ref: refOf(ref.block.tree, 'Later') };
    // The owner's private circle: Mia cannot see its messages.
    const hidden = await post(w.ws.client, w.privateCircleId, `Secret ${issueUrl('buttons')}`);
    const cases: Array<[string, string, unknown]> = [
      [hidden, ref.id, w.member.client],
      [await post(w.ws.client, w.circleId, 'No links here'), ref.id, w.member.client],
      [messageId, 'ref_nope', w.member.client],
      ['msg_nope', ref.id, w.member.client],
      [messageId, ref.id, (await w.stack.createWorkspace({ ownerName: 'Fay Foreign' })).client],
    ];
    for (const [m, r, client] of cases) {
      const res = await click(m, r, body, client as typeof w.member.client);
      expectStatus(res, 404);
      expect(res.body._tag).toBe('PlatformApiNotFoundError');
    }
  });

  it('a reference no button of the card has, or a card without a block: 400 unknown_reference', async () => {
    const { messageId, card } = await buttonsCard();
    const ref = card.reference;
    const res = await click(messageId, ref.id, { revision: ref.revision, ref: 'a99' });
    expectStatus(res, 400);
    expect(res.body.issues[0]).toMatchObject({ path: ['ref'], code: 'unknown_reference' });
    const plain = await post(w.ws.client, w.circleId, `Plain ${issueUrl('400')}`);
    const plainRef = (await cards(w.member.client, plain))[0].reference;
    expect(plainRef.block).toBeUndefined();
    expectStatus(await click(plain, plainRef.id, { revision: plainRef.revision, ref: 'a0' }), 400);
  });

  it.each([
    ['revision 0', { revision: 0, ref: 'a0' }, ['revision']],
    ['a missing ref', { revision: 1 }, ['ref']],
    ['a ref with other characters', { revision: 1, ref: 'a 0' }, ['ref']],
    ['a ref of 33 characters', { revision: 1, ref: 'a'.repeat(33) }, ['ref']],
    ['a revision that is not an integer', { revision: 1.5, ref: 'a0' }, ['revision']],
    ['an unknown field', { revision: 1, ref: 'a0', tallies: {} }, ['tallies']],
  ])('refuses %s with a tagged 400', async (_name, body, path) => {
    const { messageId, card } = await buttonsCard();
    const res = await click(messageId, card.reference.id, body);
    expectStatus(res, 400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    expect(res.body.issues.map((i: any) => i.path)).toContainEqual(path);
  });

  it('a ref of 32 characters is well-formed (400 unknown_reference, not a schema error)', async () => {
    const { messageId, card } = await buttonsCard();
    const res = await click(messageId, card.reference.id, { revision: card.reference.revision, ref: 'a'.repeat(32) });
    expect(res.body.issues[0].code).toBe('unknown_reference');
  });

  it('needs a member API key', async () => {
    const { messageId, card } = await buttonsCard();
    expect((await w.stack.client().post(`/messages/${messageId}/references/${card.reference.id}/click`, { revision: 1, ref: 'a0' })).status).toBe(401);
  });
});
