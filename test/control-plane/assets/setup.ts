/**
 * The assets suites' world, built through the real endpoints: a stack whose image copier may reach
 * the test image server on loopback through its documented test switch (IMAGE_COPY_TEST_LOOPBACK_HOSTS),
 * the image server, and the gallery app (test/fixtures/assets/gallery.ts) created, synced to
 * production and installed in a workspace with a conversation.
 */
import { expect } from 'vitest';
import { IMAGE_HOST, startImageServer, type ImageServer } from '../../fixtures/assets/image-server.ts';
import { startGalleryServer, type GalleryServer } from '../../fixtures/assets/gallery.ts';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack, type StackOptions } from '../../helpers/stack.ts';

export interface AssetsWorld {
  stack: Stack;
  images: ImageServer;
  gallery: GalleryServer;
  ws: CreatedWorkspace;
  circleId: string;
  conversationId: string;
  appId: string;
  installId: string;
  /** `/v0` with a fresh install token. */
  app(): Promise<ApiClient>;
  /** Inserts a gallery block into the conversation: the answer of `POST /v0/blocks`. */
  insert(props: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** The stored tree of a block (what the database keeps). */
  storedTree(blockId: string): Promise<any>;
  stop(): Promise<void>;
}

export async function startAssetsWorld(options: StackOptions = {}): Promise<AssetsWorld> {
  const images = await startImageServer();
  const stack = await startStack({ ...options, env: { IMAGE_COPY_TEST_LOOPBACK_HOSTS: IMAGE_HOST, ...options.env } });
  let gallery: GalleryServer | undefined;
  try {
    gallery = await startGalleryServer({ now: () => stack.clock.now() });
    const ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
    const circle = await ws.client.post('/circles', { name: 'Pictures', visibility: 'public' });
    const conversation = await ws.client.post(`/circles/${circle.body.circle.id}/conversations`, { title: 'Screens' });
    const created = await ws.client.post('/apps', { name: 'Gallery', slug: 'gallery', hosting: 'self', endpoint: { url: gallery.endpoint } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const appId: string = created.body.app.id;
    gallery.configure({ signingSecret: created.body.signingSecret, apiUrl: stack.url });
    const synced = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: gallery.app.manifest, target: 'production' });
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    const installed = await ws.client.post(`/apps/${appId}/installs`, { version: synced.body.version });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const installId: string = installed.body.install.id;
    const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
    const app = async () => {
      const res = await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return stack.v0(res.body.token as string);
    };
    const conversationId: string = conversation.body.conversation.id;
    const served = gallery;
    return {
      stack, images, gallery: served, ws, circleId: circle.body.circle.id, conversationId, appId, installId, app,
      insert: async (props) => (await app()).post('/blocks', { type: 'gallery', props, conversationId }),
      async storedTree(blockId) {
        const { rows } = await stack.db.query<{ tree: unknown }>('select tree from blocks where id = $1', [blockId]);
        return rows[0]?.tree;
      },
      async stop() {
        await stack.stop();
        await served.close();
        await images.close();
      },
    };
  } catch (err) {
    await stack.stop();
    await gallery?.close();
    await images.close();
    throw err;
  }
}

/** Every image source of a tree (`src`, `avatarSrc`), in document order. */
export function sourcesOf(tree: any): string[] {
  const out: string[] = [];
  const visit = (node: any) => {
    if (typeof node?.attrs?.src === 'string') out.push(node.attrs.src);
    if (typeof node?.attrs?.avatarSrc === 'string') out.push(node.attrs.avatarSrc);
    for (const p of node?.attrs?.people ?? []) if (typeof p.avatarSrc === 'string') out.push(p.avatarSrc);
    for (const c of node?.content ?? []) visit(c);
  };
  visit(tree);
  return out;
}
