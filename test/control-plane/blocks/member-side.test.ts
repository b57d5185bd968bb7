/**
 * The member's side of blocks over real HTTP: viewing, references and revisions, destructive
 * actions, forms, choice groups with viewer inputs and tallies (one anonymous), search selects,
 * audiences, and who may see or act on a block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { click, refOf, startBoardWorld, view, type BoardWorld } from './setup.ts';

let w: BoardWorld;
beforeAll(async () => {
  w = await startBoardWorld();
});
afterAll(async () => {
  await w?.stop();
});

const findField = (tree: any, name: string): any => {
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node?.attrs?.name === name) return node;
    if (Array.isArray(node?.content)) stack.push(...node.content);
  }
  return undefined;
};
const submitRef = (tree: any) => {
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node?.type === 'uiButton' && node.attrs.buttonType === 'submit') return node.attrs.action.ref as string;
    if (Array.isArray(node?.content)) stack.push(...node.content);
  }
  throw new Error('no submit');
};

describe('viewing', () => {
  it('shows tree, revision, summary, app, place and viewer inputs; never the action table', async () => {
    const { id, conversationId } = await w.insert();
    const block = await view(w.member.client, id);
    expect(block).toMatchObject({
      id, type: 'board', app: { id: w.appId, slug: 'board', name: 'Board' }, circleId: w.circleId, conversationId,
      revision: 1, version: 1, summary: 'Board: 0', final: null, pending: null, error: null, openLink: null,
    });
    expect(block.tree).toMatchObject({ type: 'uiBlock', attrs: { catalog: 1, summary: 'Board: 0' } });
    expect(block.inputs.lunch).toMatchObject({ values: ['pizza', 'sushi', 'salad'], multiple: false, anonymous: false, mine: [], tallies: { pizza: 0, sushi: 0, salad: 0 } });
    expect(block.inputs.secret.voters).toBeUndefined();
    expect(JSON.stringify(block)).not.toMatch(/"actions":\{/);
  });

  it('answers as if absent for a block in a circle the member cannot see, and for unknown ids', async () => {
    const api = await w.app();
    await w.stack.db.query('insert into circle_app_invitations (circle_id, app_id, created_at) values ($1, $2, now())', [w.privateCircleId, w.appId]);
    await w.ws.client.post(`/circles/${w.privateCircleId}/conversations`, { title: 'Hidden' });
    const convs = await w.ws.client.get(`/circles/${w.privateCircleId}/conversations`);
    const inserted = await api.post('/blocks', { type: 'board', props: { title: 'Hidden' }, conversationId: convs.body.items[0].id });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
    expect((await w.ws.client.get(`/blocks/${inserted.body.id}`)).status).toBe(200);
    const hidden = await w.member.client.get(`/blocks/${inserted.body.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body._tag).toBe('PlatformApiNotFoundError');
    expect((await w.member.client.post(`/blocks/${inserted.body.id}/click`, { revision: 1, ref: 'a0' })).status).toBe(404);
    expect((await w.member.client.get('/blocks/blk_nope')).status).toBe(404);
  });
});

describe('references and revisions', () => {
  it('a stale revision is refused with the current one named', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    await click(w.ws.client, id, 'Add one');
    const res = await w.member.client.post(`/blocks/${id}/click`, { revision: seen.revision, ref: refOf(seen.tree, 'Add one') });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ _tag: 'PlatformApiConflictError', currentRevision: seen.revision + 1, path: ['revision'] });
  });

  it('a reference that is no button of the revision is refused', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    const res = await w.ws.client.post(`/blocks/${id}/click`, { revision: seen.revision, ref: 'zz9' });
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ path: ['ref'], code: 'unknown_reference' });
    // A submit button's reference is not a click.
    expect((await w.ws.client.post(`/blocks/${id}/click`, { revision: seen.revision, ref: submitRef(seen.tree) })).status).toBe(400);
  });

  it('a destructive action needs confirmed: true', async () => {
    const { id } = await w.insert();
    await click(w.ws.client, id, 'Add one');
    const seen = await view(w.ws.client, id);
    const button = JSON.stringify(seen.tree);
    expect(button).toContain('"intent":"destructive"');
    expect(button).toContain('"confirm":{"title":"Remove everything?"}');
    const refused = await w.ws.client.post(`/blocks/${id}/click`, { revision: seen.revision, ref: refOf(seen.tree, 'Remove') });
    expect(refused.status).toBe(400);
    expect(refused.body.issues[0]).toMatchObject({ path: ['confirmed'], code: 'confirm_required' });
    const done = await w.ws.client.post(`/blocks/${id}/click`, { revision: seen.revision, ref: refOf(seen.tree, 'Remove'), confirmed: true });
    expect(done.body).toMatchObject({ outcome: 'applied', block: { summary: 'Board: 0' } });
  });

  it('parts whose audience leaves a member out are not shown to them, and their references are not theirs', async () => {
    const { id } = await w.insert({ title: 'VIP', vip: w.member.id });
    const vip = await view(w.member.client, id);
    const other = await view(w.ws.client, id);
    expect(JSON.stringify(vip.tree)).toContain('VIP only');
    expect(JSON.stringify(other.tree)).not.toContain('VIP only');
    const ref = refOf(vip.tree, 'VIP only');
    const refused = await w.ws.client.post(`/blocks/${id}/click`, { revision: other.revision, ref });
    expect(refused.status).toBe(400);
    const done = await w.member.client.post(`/blocks/${id}/click`, { revision: vip.revision, ref });
    expect(done.body).toMatchObject({ outcome: 'applied', block: { summary: 'VIP: 1000' } });
  });
});

describe('forms', () => {
  it('a submission delivers the values as input', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    const res = await w.ws.client.post(`/blocks/${id}/submit`, { revision: seen.revision, ref: submitRef(seen.tree), values: { note: 'Bring snacks' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.outcome).toBe('applied');
    expect(JSON.stringify(res.body.block.tree)).toContain('Note: Bring snacks');
    expect(w.board.of('block.action').at(-1)!.data).toMatchObject({ action: { name: 'save' }, input: { note: 'Bring snacks' } });
  });

  it('refuses fields the form does not have, and submissions over 16 KB', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    const ref = submitRef(seen.tree);
    const stray = await w.ws.client.post(`/blocks/${id}/submit`, { revision: seen.revision, ref, values: { lunch: 'pizza' } });
    expect(stray.status).toBe(400);
    expect(stray.body.issues[0].path).toEqual(['values', 'lunch']);
    const big = await w.ws.client.post(`/blocks/${id}/submit`, { revision: seen.revision, ref, values: { note: 'x'.repeat(1_000), a: 'y'.repeat(7_900), b: 'z'.repeat(7_900) } });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError', limit: 16_384 });
  });
});

describe('choice groups and viewer inputs', () => {
  it('stores each member\'s pick, tallies them, and delivers the pick with the tallies', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    const first = await w.ws.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: 'pizza' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.notice.text).toBe('pizza 1, yes 0');
    const delivery = w.board.of('block.action').at(-1)!;
    expect(delivery.data).toMatchObject({ action: { name: 'vote' }, input: { lunch: 'pizza' }, tallies: { lunch: { pizza: 1, sushi: 0, salad: 0 } } });
    expect(delivery.actor?.memberId).toBe(w.ws.owner.id);
    await w.member.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: 'pizza' });
    const shown = await view(w.member.client, id);
    expect(shown.inputs.lunch).toMatchObject({ mine: ['pizza'], tallies: { pizza: 2, sushi: 0, salad: 0 } });
    expect(shown.inputs.lunch.voters.pizza.map((v: any) => v.name).sort()).toEqual(['Mia Member', 'Olive Owner']);
    // Changing one's mind moves the vote; null clears it.
    await w.member.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: 'sushi' });
    expect((await view(w.member.client, id)).inputs.lunch.tallies).toEqual({ pizza: 1, sushi: 1, salad: 0 });
    await w.member.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: null });
    expect((await view(w.member.client, id)).inputs.lunch).toMatchObject({ mine: [], tallies: { pizza: 1, sushi: 0, salad: 0 } });
  });

  it('an anonymous input never reveals who chose: no voters, no actor in the delivery', async () => {
    const { id } = await w.insert();
    const seen = await view(w.member.client, id);
    const res = await w.member.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'secret', value: 'yes' });
    expect(res.body.notice.text).toBe('pizza 0, yes 1');
    const delivery = w.board.of('block.action').at(-1)!;
    expect(delivery.actor).toBeUndefined();
    expect(JSON.stringify(delivery)).not.toContain(w.member.id);
    const other = await view(w.ws.client, id);
    expect(other.inputs.secret).toEqual({ values: ['yes', 'no'], multiple: false, anonymous: true, mine: [], tallies: { yes: 1, no: 0 } });
    expect((await view(w.member.client, id)).inputs.secret.mine).toEqual(['yes']);
  });

  it('a click delivers the tallies and answers them as the clicker sees them (the counts come with the block\'s row)', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    await w.ws.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: 'pizza' });
    await w.member.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: 'salad' });
    await w.member.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'secret', value: 'no' });
    const clicked = await click(w.member.client, id, 'Add one');
    expect(clicked.outcome).toBe('applied');
    const delivery = w.board.of('block.action').at(-1)!;
    expect(delivery.data).toMatchObject({ action: { name: 'inc' }, tallies: { lunch: { pizza: 1, sushi: 0, salad: 1 }, secret: { yes: 0, no: 1 } } });
    const { lunch, secret } = clicked.block.inputs;
    expect(lunch).toMatchObject({ mine: ['salad'], tallies: { pizza: 1, sushi: 0, salad: 1 } });
    expect(lunch.voters).toEqual({ pizza: [{ memberId: w.ws.owner.id, name: 'Olive Owner' }], sushi: [], salad: [{ memberId: w.member.id, name: 'Mia Member' }] });
    expect(secret).toEqual({ values: ['yes', 'no'], multiple: false, anonymous: true, mine: ['no'], tallies: { yes: 0, no: 1 } });
    // The owner's own view: their pick, the same tallies, and still no name behind the secret ballot.
    const owners = await click(w.ws.client, id, 'Add one');
    expect(owners.block.inputs.lunch.mine).toEqual(['pizza']);
    expect(owners.block.inputs.secret).toEqual({ values: ['yes', 'no'], multiple: false, anonymous: true, mine: [], tallies: { yes: 0, no: 1 } });
    expect(JSON.stringify(owners.block.inputs.secret)).not.toContain(w.member.id);
  });

  it('refuses values the field does not offer, and fields without a change handler', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    const bad = await w.ws.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: 'tacos' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ path: ['value'], code: 'invalid_value' });
    expect((await w.ws.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'lunch', value: ['pizza', 'sushi'] })).status).toBe(400);
    expect((await w.ws.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'note', value: 'x' })).status).toBe(400);
  });
});

describe('search selects', () => {
  it('delivers select.search with the stored action and answers at most 50 options', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    expect(findField(seen.tree, 'owner').attrs.search.ref).toMatch(/^a\d+$/);
    const res = await w.ws.client.post(`/blocks/${id}/search`, { revision: seen.revision, name: 'owner', query: 'ad' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.options).toHaveLength(50);
    expect(res.body.options[0]).toEqual({ value: 'mem_0', label: 'ad 0' });
    expect(w.board.of('select.search').at(-1)!.data).toMatchObject({ action: { name: 'find', args: {} }, query: 'ad', block: { id } });
    // Picking one runs the select's change handler.
    const picked = await w.ws.client.post(`/blocks/${id}/change`, { revision: seen.revision, name: 'owner', value: 'mem_3' });
    expect(picked.body.outcome).toBe('applied');
    expect(findField(picked.body.block.tree, 'owner').attrs).toMatchObject({ value: 'mem_3', selectedLabel: 'mem_3' });
  });

  it('only search selects are searched', async () => {
    const { id } = await w.insert();
    const seen = await view(w.ws.client, id);
    expect((await w.ws.client.post(`/blocks/${id}/search`, { revision: seen.revision, name: 'lunch', query: 'x' })).status).toBe(400);
  });
});
