/**
 * Images that reach members by other paths than a block's tree are copied too (issue 21, item 1):
 * a reference's fields pushed by the app (`PUT /v0/references`: its block's tree and its `icon`), a
 * link resolved by the app (`reference.resolve`: the same fields), and `image` nodes in a reply's
 * document (`POST /v0/replies`). What is stored names our copies; an image that fails its checks is
 * refused with its limit's message where it sits. (Stream personas: replies/stream-events.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_HOST, startImageServer, type ImageServer } from '../../fixtures/assets/image-server.ts';
import { png, SVG } from '../../fixtures/assets/images.ts';
import { cards, issueUrl, post, startReferencesWorld, type ReferencesWorld } from '../references/setup.ts';
import { startAppMessagesWorld, type AppMessagesWorld } from '../replies/setup.ts';

const ASSET_ID = /^ast_[a-z2-7]{52}$/;
const SWITCH = { env: { IMAGE_COPY_TEST_LOOPBACK_HOSTS: IMAGE_HOST } };

let images: ImageServer;
let refs: ReferencesWorld;
let msgs: AppMessagesWorld;
beforeAll(async () => {
  images = await startImageServer();
  [refs, msgs] = await Promise.all([startReferencesWorld(SWITCH), startAppMessagesWorld(SWITCH)]);
}, 60_000);
afterAll(async () => {
  await refs?.stop();
  await msgs?.stop();
  await images?.close();
});

const pictureTree = (src: string) => ({
  type: 'uiBlock', attrs: { catalog: 1, summary: 'S' },
  content: [{ type: 'uiHeader', content: [{ type: 'uiHeaderTitle', content: [{ type: 'text', text: 'T' }] }] }, { type: 'uiImage', attrs: { src, alt: 'A' } }, { type: 'uiActions', content: [] }],
});

async function storedFields(externalId: string): Promise<any> {
  const { rows } = await refs.stack.db.query<{ fields: any }>('select fields from reference_records where external_id = $1', [externalId]);
  return rows[0]?.fields;
}

describe('references', () => {
  it('a push: its block\'s images and its icon are stored as our copies; an SVG is refused at its path', async () => {
    const api = await refs.app();
    const src = images.put('/pushed.png', { bytes: png(6, 6) });
    const icon = images.put('/pushed-icon.png', { bytes: png(2, 2) });
    const pushed = await api.put('/references', { kind: 'issue', externalId: 'pic-1', fields: { title: 'Pictured', icon, block: { tree: pictureTree(src), actions: {} } }, version: 1 });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    const fields = await storedFields('pic-1');
    expect(fields.icon).toMatch(ASSET_ID);
    expect(fields.block.tree.content[1].attrs.src).toMatch(ASSET_ID);

    const svg = images.put('/pushed.svg', { bytes: SVG });
    const refused = await api.put('/references', { kind: 'issue', externalId: 'pic-2', fields: { title: 'Bad', block: { tree: pictureTree(svg), actions: {} } }, version: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      _tag: 'PlatformApiInvalidRequestError',
      issues: [{ path: ['fields', 'block', 'tree', 'content', 1, 'attrs', 'src'], message: 'Copied images are JPEG, PNG, WebP or GIF', code: 'image_not_copied' }],
    });
    expect(await storedFields('pic-2')).toBeUndefined();
  });

  it('a resolved link: the card members see names our copies, and its image loads from /assets/{id}', async () => {
    const src = images.put('/resolved.png', { bytes: png(9, 9) });
    const id = `picture-${Buffer.from(src).toString('base64url')}`;
    const messageId = await post(refs.ws.client, refs.circleId, `See ${issueUrl(id)}`);
    const [card] = await cards(refs.ws.client, messageId);
    expect(card.access).toBe('granted');
    expect(card.reference.icon).toMatch(ASSET_ID);
    const [, image] = card.reference.block.tree.content;
    expect(image.attrs.src).toMatch(ASSET_ID);
    expect((await refs.stack.fetch(`/assets/${image.attrs.src}`)).status).toBe(200);
    expect(images.hits('/resolved.png')).toBe(1);
  });
});

describe('replies', () => {
  it('an image node of a reply is stored as the URL of our copy; one that fails is refused at its src', async () => {
    const api = await msgs.app();
    const src = images.put('/reply.png', { bytes: png(3, 3) });
    const content = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Look' }] }, { type: 'image', attrs: { src, alt: 'Chart' } }] };
    const res = await api.post('/replies', { content, conversationId: msgs.conversationId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const messages = (await msgs.ws.client.get(`/conversations/${msgs.conversationId}/messages`)).body.items as Array<{ id: string; content: any }>;
    const stored = messages.find((m) => m.id === res.body.id)!;
    const copied: string = stored.content.content[1].attrs.src;
    expect(copied).toMatch(new RegExp(`^${msgs.stack.config.publicUrl}/assets/ast_[a-z2-7]{52}$`));
    expect((await msgs.stack.fetch(new URL(copied).pathname)).status).toBe(200);

    const tooWide = images.put('/wide.png', { bytes: png(8193, 1) });
    const refused = await api.post('/replies', { content: { type: 'doc', content: [{ type: 'image', attrs: { src: tooWide } }, { type: 'paragraph', content: [{ type: 'text', text: 'x' }] }] }, conversationId: msgs.conversationId });
    expect(refused.status).toBe(400);
    expect(refused.body.issues[0]).toMatchObject({ path: ['content', 'content', 0, 'attrs', 'src'], message: 'Copied images are at most 8,192 pixels per side' });
  });
});
