/**
 * `POST /client/v1/installs/{installId}/playground-blocks` over real HTTP and Postgres: a
 * developer's tree goes into a conversation as a block of their development install (served on
 * loopback, deliveries through the development relay as `platform dev` runs it), and a click on
 * its button is answered by the app's own handler. Only the developer's own active dev install;
 * the tree, its table, props and state checked (what they leave out filled from the schemas'
 * defaults); the target seen, writable and reached. Refusals carry their tags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTree, ui } from '@platform/sdk';
import { startPlaygroundDevApp, type PlaygroundDevApp } from '../../fixtures/playground/dev-app.ts';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let dev: { member: { id: string }; apiKey: string; client: ApiClient };
let devApp: PlaygroundDevApp;
let circleId: string;
let conversationId: string;

const TRY = renderTree(ui.block({ summary: 'Try me' }, [ui.header({ title: 'Try me' }), ui.actions([ui.button({ label: 'Bump', action: 'bump' })])]));

function status<T extends { status: number; body: any }>(res: T, expected: number, tag?: string): T {
  expect(res.status, JSON.stringify(res.body)).toBe(expected);
  if (tag !== undefined) expect(res.body._tag).toBe(tag);
  return res;
}

const tryTree = (body: Record<string, unknown> = {}, client: ApiClient = dev.client, installId = devApp.installId) =>
  client.post(`/installs/${installId}/playground-blocks`, { type: 'ticket', tree: TRY.tree, actions: TRY.actions, target: { conversationId }, ...body });

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
  dev = await stack.addMember(ws.apiKey, { role: 'member', name: 'Mia Member' });
  // A dev install reaches public circles its developer belongs to: Mia's own.
  circleId = status(await dev.client.post('/circles', { name: 'Sandbox', visibility: 'public', chat: true }), 201).body.circle.id;
  conversationId = status(await dev.client.post(`/circles/${circleId}/conversations`, { title: 'Trying trees' }), 201).body.conversation.id;
  devApp = await startPlaygroundDevApp({ baseUrl: stack.url, apiKey: dev.apiKey, now: () => stack.clock.now() });
}, 60_000);
afterAll(async () => {
  await devApp?.stop();
  await stack?.stop();
});

describe('trying a tree against a development install', () => {
  it('posts the tree as a block of the dev install; its button runs the app\'s handler, which changes the card', async () => {
    const tried = status(await tryTree({ props: { title: 'Demo' } }), 201);
    const block = tried.body.block;
    expect(block).toMatchObject({ app: { id: devApp.appId }, summary: 'Try me', tree: TRY.tree, final: null, error: null });
    // The block's message is the developer's, in the conversation.
    const messages = status(await dev.client.get(`/conversations/${conversationId}/messages`), 200).body.items;
    expect(messages.find((m: any) => m.blockId === block.id)).toMatchObject({ author: { kind: 'member', memberId: dev.member.id } });
    // The app was not asked for a first tree.
    expect(devApp.actions).toEqual([]);

    const ref = Object.keys(TRY.actions)[0]!;
    const clicked = status(await dev.client.post(`/blocks/${block.id}/click`, { revision: block.revision, ref }), 200);
    expect(clicked.body).toMatchObject({ outcome: 'applied', notice: { tone: 'success', text: 'Bumped' }, block: { summary: 'Demo: 1 bumps' } });
    expect(JSON.stringify(clicked.body.block.tree)).toContain('Bumped 1 times by Mia Member');
    expect(devApp.actions).toHaveLength(1);
    expect(devApp.actions[0]).toMatchObject({
      actor: { memberId: dev.member.id, name: 'Mia Member' },
      data: { block: { id: block.id, type: 'ticket', props: { title: 'Demo' }, state: {} }, action: { name: 'bump', args: {} } },
    });
  });

  it('props and state left out start at their schemas\' defaults; the answer says what was stored, and the block works', async () => {
    const wave = renderTree(ui.block({ summary: 'Wave' }, [ui.actions([ui.button({ label: 'Wave', action: 'wave' })])]));
    // `{}` fails the state schema as written (zod makes a defaulted field required) until its default fills it.
    const tried = status(await tryTree({ type: 'greeting', tree: wave.tree, actions: wave.actions, props: {}, state: {} }), 201);
    expect(tried.body).toMatchObject({ props: { name: 'world' }, state: { waves: 0 }, block: { type: 'greeting', summary: 'Wave' } });
    const ref = Object.keys(wave.actions)[0]!;
    const clicked = status(await dev.client.post(`/blocks/${tried.body.block.id}/click`, { revision: tried.body.block.revision, ref }), 200);
    expect(clicked.body.outcome).toBe('applied');
    expect(JSON.stringify(clicked.body.block.tree)).toContain('1 waves');
    expect(devApp.actions.at(-1)).toMatchObject({ data: { block: { type: 'greeting', props: { name: 'world' }, state: { waves: 0 } }, action: { name: 'wave' } } });

    // What is given is kept; only what is left out is filled, and a given value is still checked.
    const given = status(await tryTree({ type: 'greeting', tree: wave.tree, actions: wave.actions, props: { name: 'Ada' }, state: { waves: 7 } }), 201);
    expect(given.body).toMatchObject({ props: { name: 'Ada' }, state: { waves: 7 } });
    const wrong = status(await tryTree({ type: 'greeting', tree: wave.tree, actions: wave.actions, state: { waves: -1 } }), 400, 'PlatformApiInvalidRequestError');
    expect(wrong.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: ['state', 'waves'], code: 'minimum' })]));
    // A type without defaults stores what was sent.
    expect(status(await tryTree({}), 201).body).toMatchObject({ props: {}, state: {} });
  });

  it('takes a first state that fits the type and a circle\'s chat as the target', async () => {
    const tried = status(await tryTree({ state: { bumps: 41, by: 'Earlier' }, target: { circleId } }), 201);
    const ref = Object.keys(TRY.actions)[0]!;
    const clicked = status(await dev.client.post(`/blocks/${tried.body.block.id}/click`, { revision: tried.body.block.revision, ref }), 200);
    expect(JSON.stringify(clicked.body.block.tree)).toContain('Bumped 42 times by Mia Member');
  });

  it('checks the tree, its action table, the props and the state, and stores nothing when one is wrong', async () => {
    const before = status(await dev.client.get(`/conversations/${conversationId}/messages`), 200).body.items.length;
    const invalid = async (body: Record<string, unknown>, path: Array<string | number>, code: string) => {
      const res = status(await tryTree(body), 400, 'PlatformApiInvalidRequestError');
      expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path, code })]));
    };
    const blank = renderTree(ui.block({ summary: 'Blank' }, [ui.actions([ui.button({ label: '   ', action: 'bump' })])]));
    await invalid({ tree: blank.tree, actions: blank.actions }, ['tree', 'content', 0, 'content', 0, 'attrs', 'label'], 'invalid_tree');
    await invalid({ tree: { type: 'uiBlock' } }, ['tree'], 'invalid_tree');
    const ref = Object.keys(TRY.actions)[0]!;
    await invalid({ actions: { [ref]: { name: 'explode' } } }, ['actions', ref, 'name'], 'unknown_action');
    await invalid({ state: { bumps: -1 } }, ['state', 'bumps'], 'minimum');
    await invalid({ props: { title: 'x'.repeat(61) } }, ['props', 'title'], 'maxLength');
    status(await tryTree({ target: { conversationId, circleId } }), 400, 'PlatformApiInvalidRequestError');
    status(await tryTree({ extra: true }), 400, 'PlatformApiInvalidRequestError');
    status(await tryTree({ type: 'nope' }), 422, 'PlatformAppBlockTypeUnknownError');
    expect(status(await dev.client.get(`/conversations/${conversationId}/messages`), 200).body.items).toHaveLength(before);
  });

  it('only the developer\'s own dev install: another member, and a workspace install, are 404', async () => {
    status(await tryTree({}, ws.client), 404, 'PlatformApiNotFoundError');
    status(await tryTree({}, dev.client, 'ins_nothing'), 404, 'PlatformApiNotFoundError');
    // A published app's install: its trees come from the app only.
    const endpoint = { url: 'https://published.example.net/platform' };
    const created = status(await ws.client.post('/apps', { name: 'Published', slug: 'published', hosting: 'self', endpoint }), 201);
    status(await stack.v0(ws.apiKey).put(`/apps/${created.body.app.id}/manifest`, { manifest: { ...devApp.app.manifest, name: 'Published', slug: 'published', endpoint }, target: 'production' }), 200);
    const consent = status(await ws.client.get(`/apps/${created.body.app.id}/consent`), 200);
    const installed = status(await ws.client.post(`/apps/${created.body.app.id}/installs`, { version: consent.body.consent.version }), 201);
    status(await tryTree({ target: { conversationId } }, ws.client, installed.body.install.id), 404, 'PlatformApiNotFoundError');
  });

  it('the target must be one the developer sees and can post in, and the dev install reaches', async () => {
    // Public, seen by Mia, but she does not belong to it: her dev install does not reach it.
    const others = status(await ws.client.post('/circles', { name: 'Owners', visibility: 'public', chat: true }), 201).body.circle.id;
    status(await tryTree({ target: { circleId: others } }), 403, 'PlatformApiForbiddenError');
    const hidden = status(await ws.client.post('/circles', { name: 'Hidden', visibility: 'private', chat: true }), 201).body.circle.id;
    status(await tryTree({ target: { circleId: hidden } }), 404, 'PlatformApiNotFoundError');
    status(await tryTree({ target: { conversationId: 'cnv_nothing' } }), 404);
  });

  it('no credential: 401 PlatformAppTokenMissingError; it is in the OpenAPI document', async () => {
    status(await tryTree({}, stack.client()), 401, 'PlatformAppTokenMissingError');
    const doc = await (await stack.fetch('/client/v1/openapi.json')).json() as any;
    const op = doc.paths['/installs/{installId}/playground-blocks']?.post;
    expect(op).toMatchObject({ operationId: 'insertPlaygroundBlock', security: [{ member: [] }] });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '409', '413', '422']));
  });
});
