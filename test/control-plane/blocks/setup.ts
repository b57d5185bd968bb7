/**
 * The blocks suites' world, built through the real endpoints: a stack, the board fixture app
 * served over HTTP (test/fixtures/blocks), a workspace with an owner and a member, a public circle
 * with chat and a conversation in it, the app created with the fixture's endpoint, its manifest
 * synced to production and installed, and an install token minted with client credentials.
 */
import { expect } from 'vitest';
import { startBoardServer, type BoardServer } from '../../fixtures/blocks/server.ts';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack, type StackOptions } from '../../helpers/stack.ts';

export interface BoardWorld {
  stack: Stack;
  board: BoardServer;
  ws: CreatedWorkspace;
  member: { id: string; name: string; apiKey: string; client: ApiClient };
  circleId: string;
  privateCircleId: string;
  conversationId: string;
  appId: string;
  installId: string;
  clientId: string;
  clientSecret: string;
  /** A fresh install token (`platapp_…`) with the approved scopes. */
  installToken(): Promise<string>;
  /** `/v0` with the install token. */
  app(): Promise<ApiClient>;
  /** Inserts a board block into the conversation (or elsewhere) and answers its record. */
  insert(props?: Record<string, unknown>, target?: Record<string, string>): Promise<any>;
  /** Waits for background renders and delivery records. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** `endpointFor`: the endpoint URL the app is created with, from the one the fixture serves (default: that one). */
export async function startBoardWorld(options: StackOptions & { endpointFor?: (served: string) => string } = {}): Promise<BoardWorld> {
  const { endpointFor, ...stackOptions } = options;
  const stack = await startStack(stackOptions);
  let board: BoardServer | undefined;
  try {
    board = await startBoardServer({ now: () => stack.clock.now() });
    const ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
    const added = await stack.addMember(ws.apiKey, { role: 'member', name: 'Mia Member' });
    const circle = await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true });
    expect(circle.status, JSON.stringify(circle.body)).toBe(201);
    const privateCircle = await ws.client.post('/circles', { name: 'Secret', visibility: 'private' });
    const conversation = await ws.client.post(`/circles/${circle.body.circle.id}/conversations`, { title: 'Plans' });
    expect(conversation.status, JSON.stringify(conversation.body)).toBe(201);

    const created = await ws.client.post('/apps', { name: 'Board', slug: 'board', hosting: 'self', endpoint: { url: endpointFor?.(board.endpoint) ?? board.endpoint } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const appId: string = created.body.app.id;
    board.configure({ signingSecret: created.body.signingSecret, apiUrl: stack.url });
    const synced = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: board.app.manifest, target: 'production' });
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    const consent = await ws.client.get(`/apps/${appId}/consent`);
    expect(consent.status, JSON.stringify(consent.body)).toBe(200);
    const installed = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const installId: string = installed.body.install.id;
    const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');

    const installToken = async () => {
      const res = await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.token as string;
    };
    const world: BoardWorld = {
      stack, board, ws,
      member: { id: added.member.id, name: added.member.name, apiKey: added.apiKey, client: added.client },
      circleId: circle.body.circle.id,
      privateCircleId: privateCircle.body.circle.id,
      conversationId: conversation.body.conversation.id,
      appId, installId, clientId: created.body.clientId, clientSecret: created.body.clientSecret,
      installToken,
      app: async () => stack.v0(await installToken()),
      async insert(props = { title: 'Board' }, target = { conversationId: world.conversationId }) {
        const res = await (await world.app()).post('/blocks', { type: 'board', props, ...target });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body;
      },
      settled: () => stack.controlPlane.blocks.settled(),
      async stop() {
        await board!.close();
        await stack.stop();
      },
    };
    return world;
  } catch (err) {
    await board?.close();
    await stack.stop();
    throw err;
  }
}

/** The member's view of a block, expecting success. */
export async function view(client: ApiClient, blockId: string): Promise<any> {
  const res = await client.get(`/blocks/${blockId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.block;
}

/** The reference of the first control labelled `label` in a member's tree (buttons, menu items). */
export function refOf(tree: any, label: string): string {
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node?.attrs?.label === label && node.attrs.action?.ref) return node.attrs.action.ref;
    if (Array.isArray(node?.content)) stack.push(...node.content);
  }
  throw new Error(`No control labelled ${label}`);
}

/** Clicks the control labelled `label` on the block as the member sees it now. */
export async function click(client: ApiClient, blockId: string, label: string, extra: Record<string, unknown> = {}): Promise<any> {
  const block = await view(client, blockId);
  const res = await client.post(`/blocks/${blockId}/click`, { revision: block.revision, ref: refOf(block.tree, label), ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
