/**
 * Copied images over real HTTP (issue 21, item 1; spec, Tree rule 6 and the "Copied images" limit:
 * JPEG, PNG, WebP, GIF; 5 MB; 8,192 pixels per side; 4 second download). A tree's image URLs are
 * fetched once by the service from the test image server (reachable only through its test switch),
 * checked by their bytes, stored by content and replaced by asset ids of ours, which members load
 * from `/assets/{id}`. Each limit at its boundary and one past it; internal addresses, redirects to
 * them and SVG refused; copies reused by URL and by content; `check/trees` says what an insert does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gif, jpeg, png, SVG, webp } from '../../fixtures/assets/images.ts';
import { sourcesOf, startAssetsWorld, type AssetsWorld } from './setup.ts';

let w: AssetsWorld;
beforeAll(async () => {
  w = await startAssetsWorld();
});
afterAll(async () => w?.stop());

const MB = 1024 * 1024;
const ASSET_ID = /^ast_[a-z2-7]{52}$/;
let serial = 0;
/** A fresh path on the image server for `bytes`: its tree URL. */
const put = (bytes: Buffer, ext = 'png') => w.images.put(`/img-${++serial}.${ext}`, { bytes });

async function insertImage(src: string) {
  return w.insert({ title: 'Pictures', images: [{ src, alt: 'A picture' }] });
}

function expectRefused(res: { status: number; body: any }, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(502);
  expect(res.body).toMatchObject({ _tag: 'PlatformAppResponseInvalidError' });
  expect(res.body.message).toBe(`The tree is invalid at content.1.attrs.src: ${message}`);
}

describe('a tree with images', () => {
  it('is stored and served with asset ids of ours; members load the bytes from /assets/{id}', async () => {
    const picture = png(3, 2);
    const face = png(1, 1, { rgba: [200, 10, 10, 255] });
    const src = put(picture);
    const avatar = put(face);
    const res = await w.insert({ title: 'Pictures', images: [{ src, alt: 'A picture' }], avatars: [avatar] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const stored = sourcesOf(await w.storedTree(res.body.id));
    expect(stored).toHaveLength(2);
    for (const id of stored) expect(id).toMatch(ASSET_ID);
    expect(JSON.stringify(await w.storedTree(res.body.id))).not.toContain(w.images.origin);
    const seen = await w.ws.client.get(`/blocks/${res.body.id}`);
    expect(sourcesOf(seen.body.block.tree)).toEqual(stored);

    const served = await w.stack.fetch(`/assets/${stored[0]}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(picture)).toBe(true);
    expect(Object.fromEntries(served.headers)).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'public, max-age=31536000, immutable',
    });
    const again = await w.stack.fetch(`/assets/${stored[0]}`, { headers: { 'if-none-match': served.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(w.images.hits(new URL(src).pathname)).toBe(1);
  });

  it('reuses a copy by URL (no second download) and by content (the same bytes from another URL are one asset)', async () => {
    const bytes = png(5, 5, { rgba: [1, 2, 3, 255] });
    const src = put(bytes);
    const first = await insertImage(src);
    const second = await insertImage(src);
    expect(w.images.hits(new URL(src).pathname)).toBe(1);
    const elsewhere = put(bytes);
    const third = await insertImage(elsewhere);
    const ids = await Promise.all([first, second, third].map(async (r) => sourcesOf(await w.storedTree(r.body.id))[0]));
    expect(new Set(ids).size).toBe(1);
    const { rows } = await w.stack.db.query('select count(*)::int as n from assets where id = $1', [ids[0]]);
    expect(rows[0]!.n).toBe(1);
  });

  it('an action result\'s tree has its images copied too; one that fails keeps the previous tree with an inline error', async () => {
    const kept = put(png(2, 2));
    const next = put(gif(4, 4), 'gif');
    const res = await w.insert({ title: 'Swap', images: [{ src: kept, alt: 'Before' }], next: [{ src: next, alt: 'After' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const before = (await w.ws.client.get(`/blocks/${res.body.id}`)).body.block;
    const swap = (tree: any) => tree.content.find((n: any) => n.type === 'uiActions').content[0].attrs.action.ref;
    const clicked = await w.ws.client.post(`/blocks/${res.body.id}/click`, { revision: before.revision, ref: swap(before.tree) });
    expect(clicked.status, JSON.stringify(clicked.body)).toBe(200);
    const after = sourcesOf(await w.storedTree(res.body.id));
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(ASSET_ID);
    expect((await w.stack.fetch(`/assets/${after[0]}`)).headers.get('content-type')).toBe('image/gif');

    const broken = await w.insert({ title: 'Swap badly', images: [{ src: kept, alt: 'Before' }], next: [{ src: put(SVG, 'svg'), alt: 'After' }] });
    const shown = (await w.ws.client.get(`/blocks/${broken.body.id}`)).body.block;
    const failed = await w.ws.client.post(`/blocks/${broken.body.id}/click`, { revision: shown.revision, ref: swap(shown.tree) });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body).toMatchObject({ outcome: 'failed', error: { message: expect.any(String) } });
    // The tree before the action stays: its copied image, nothing of the refused one.
    expect(sourcesOf(await w.storedTree(broken.body.id))).toEqual(sourcesOf(shown.tree));
  });
});

describe('the copied-image limits, at the boundary and one past it', () => {
  it.each([
    ['a PNG', () => png(2, 2), 'image/png'],
    ['a JPEG', () => jpeg(640, 480), 'image/jpeg'],
    ['a WebP', () => webp(640, 480), 'image/webp'],
    ['a GIF', () => gif(64, 64), 'image/gif'],
  ])('type: %s is copied, its type read from the bytes', async (_name, bytes, type) => {
    // Served as application/octet-stream: the header is not what decides.
    const res = await insertImage(put(bytes()));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [id] = sourcesOf(await w.storedTree(res.body.id));
    expect((await w.stack.fetch(`/assets/${id}`)).headers.get('content-type')).toBe(type);
  });

  it.each([
    ['SVG (even served as image/png)', SVG],
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>')],
    ['a BMP', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])],
  ])('type: %s is refused', async (_name, bytes) => {
    const src = w.images.put(`/img-${++serial}.png`, { bytes, contentType: 'image/png' });
    expectRefused(await insertImage(src), 'Copied images are JPEG, PNG, WebP or GIF');
  });

  it('5 MB: exactly 5 MB is copied, one byte more is refused (declared, or only counted while streaming)', async () => {
    expect((await insertImage(put(png(2, 2, { bytes: 5 * MB })))).status).toBe(201);
    expectRefused(await insertImage(put(png(2, 2, { bytes: 5 * MB + 1 }))), 'Copied images are at most 5 MB');
    // No content-length: counted as it streams.
    const chunked = w.images.put(`/img-${++serial}.png`, { bytes: png(2, 2, { bytes: 5 * MB + 1 }), chunked: true });
    expectRefused(await insertImage(chunked), 'Copied images are at most 5 MB');
  });

  it.each([
    ['PNG', (w: number, h: number) => png(w, h)],
    ['JPEG', jpeg],
    ['WebP', webp],
    ['GIF', gif],
  ])('8,192 pixels per side: a %s 8,192 wide or high is copied, 8,193 is refused', async (_name, make) => {
    expect((await insertImage(put(make(8192, 1)))).status).toBe(201);
    expect((await insertImage(put(make(1, 8192)))).status).toBe(201);
    expectRefused(await insertImage(put(make(8193, 1))), 'Copied images are at most 8,192 pixels per side');
    expectRefused(await insertImage(put(make(1, 8193))), 'Copied images are at most 8,192 pixels per side');
  });

  it('a decoder bomb (a PNG header claiming 100,000 pixels a side) is refused from its header alone', async () => {
    const bomb = png(1, 1);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    expectRefused(await insertImage(put(bomb)), 'Copied images are at most 8,192 pixels per side');
  });

  it('4 seconds: a download that does not finish within them is refused', { timeout: 20_000 }, async () => {
    const src = w.images.put(`/stall-${++serial}.png`, { stall: png(2, 2).subarray(0, 20) });
    const started = performance.now();
    expectRefused(await insertImage(src), 'Copied images download within 4 seconds');
    expect(performance.now() - started).toBeGreaterThanOrEqual(3_900);
  });
});

describe('where an image may come from', () => {
  it('an internal address is refused without a request to it', async () => {
    const port = new URL(w.images.origin).port;
    const path = `/internal-${++serial}.png`;
    w.images.put(path, { bytes: png(2, 2) });
    const res = await insertImage(`https://127.0.0.1:${port}${path}`);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/^The tree is invalid at content\.1\.attrs\.src: The image URL is refused: /);
    expect((await insertImage(`https://localhost:${port}${path}`)).status).toBe(502);
    expect(w.images.hits(path)).toBe(0);
  });

  it('a redirect to an internal address is refused (each hop checked again); one to a public-looking test URL is followed', async () => {
    const port = new URL(w.images.origin).port;
    const target = `/target-${++serial}.png`;
    w.images.put(target, { bytes: png(2, 2) });
    const toLoopback = w.images.put(`/hop-${++serial}`, { redirect: `https://127.0.0.1:${port}${target}` });
    const toPrivate = w.images.put(`/hop-${++serial}`, { redirect: 'https://10.20.30.40/x.png' });
    for (const src of [toLoopback, toPrivate]) {
      const res = await insertImage(src);
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/The image URL is refused: /);
    }
    expect(w.images.hits(target)).toBe(0);
    const followed = await insertImage(w.images.put(`/hop-${++serial}`, { redirect: `${w.images.origin}${target}` }));
    expect(followed.status, JSON.stringify(followed.body)).toBe(201);
    expect(w.images.hits(target)).toBe(1);
  });

  it('an image URL that answers 404 is refused', async () => {
    expectRefused(await insertImage(`${w.images.origin}/nothing-here.png`), 'The image URL answered 404');
  });
});

describe('POST /v0/apps/check/trees says what an insert would', () => {
  const tree = (src: string) => ({
    type: 'uiBlock', attrs: { catalog: 1, summary: 'S' },
    content: [{ type: 'uiHeader', content: [{ type: 'uiHeaderTitle', content: [{ type: 'text', text: 'T' }] }] }, { type: 'uiImage', attrs: { src, alt: 'A' } }, { type: 'uiActions', content: [] }],
  });

  it('an image that fails its checks: the same message at its src; one that passes: valid', async () => {
    const check = (src: string) => w.stack.v0(w.ws.apiKey).post('/apps/check/trees', { tree: tree(src), actions: {} });
    const svg = await check(put(SVG, 'svg'));
    expect(svg.status, JSON.stringify(svg.body)).toBe(200);
    expect(svg.body).toEqual({ valid: false, message: 'Copied images are JPEG, PNG, WebP or GIF', path: ['content', 1, 'attrs', 'src'] });
    const big = await check(put(png(8193, 1)));
    expect(big.body).toEqual({ valid: false, message: 'Copied images are at most 8,192 pixels per side', path: ['content', 1, 'attrs', 'src'] });
    expect((await check(put(png(8, 8)))).body).toEqual({ valid: true });
  });
});
