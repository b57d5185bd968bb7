// A click's tree is validated once (issue 24 item 3; decisions/clicks.md): the service checks every
// tree an app answers, so the SDK does not check it again where a server says its deliveries come
// from the platform (`serve`) and the install is a workspace's. Its author still sees a bad tree's
// message and path from the SDK in development (a `dev` install) and in tests calling `app.fetch`.
import { afterEach, describe, expect, it } from 'vitest';
import { defineApp, defineBlock, deliveryHeaders, ENV_KEYS, silentLogger } from '@platform/sdk';
import { serve, type Served } from '../../../sandbox-lib/src/node/index.ts';
import { captureLogger, envelope, NOW_MS, SECRET, signedRequest } from './helpers.ts';

const ENV = { [ENV_KEYS.signingSecret]: SECRET };
// A tree the catalog refuses: a node type it does not know, at tree.content.0.
const BAD_TREE = { type: 'uiBlock', attrs: { catalog: 1, summary: 'Bad' }, content: [{ type: 'noSuchNode' }] };
const badApp = (logger = silentLogger, now?: () => number) => defineApp({
  name: 'Bad', slug: 'bad', hosting: 'self', endpoint: { url: 'https://bad.example.com/platform' },
  blocks: [defineBlock({
    type: 'bad', title: 'Bad', props: {}, state: {},
    render: () => ({ tree: BAD_TREE, actions: {} }) as never,
  })],
}, { logger, ...(now === undefined ? {} : { now }) });
const RENDER = { block: { id: 'blk_1', type: 'bad', props: {}, state: {}, revision: 1, version: 1 }, mode: 'interactive' };

let server: Served | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function viaServe(kind: 'workspace' | 'dev'): Promise<{ status: number; body: Record<string, unknown> }> {
  server = await serve(badApp(), { port: 0, env: ENV, logger: silentLogger });
  const body = JSON.stringify(envelope('block.render', RENDER, { install: { id: 'ins_1', workspaceId: 'wsp_1', kind, config: {} } }));
  const headers = await deliveryHeaders({ id: JSON.parse(body).id, timestamp: new Date(), body, secret: SECRET, deliveryClass: 'interactive', installId: 'ins_1' });
  const response = await fetch(`${server.url}/platform`, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the SDK\'s own check of an answer\'s tree', () => {
  it('names the bad tree\'s path to an author calling app.fetch (tests), logged', async () => {
    const log = captureLogger();
    const response = await badApp(log, () => NOW_MS).fetch(await signedRequest(envelope('block.render', RENDER)), ENV);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string; message: string; path: unknown[] };
    expect(body.error).toBe('invalid-tree');
    expect(body.path).toEqual(['tree', 'content', 0]);
    expect(body.message).toContain('render of block bad returned a tree the catalog refuses at tree.content.0');
    expect(log.entries.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([body.message]);
  });

  it('names it for a development install behind serve', async () => {
    const { status, body } = await viaServe('dev');
    expect(status).toBe(500);
    expect(body).toMatchObject({ error: 'invalid-tree', path: ['tree', 'content', 0] });
  });

  it('is left to the service for a workspace install behind serve: the answer goes out as written', async () => {
    const { status, body } = await viaServe('workspace');
    expect(status).toBe(200);
    expect(body.tree).toEqual(BAD_TREE);
  });
});
