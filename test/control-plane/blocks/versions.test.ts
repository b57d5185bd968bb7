/**
 * Issue 25 item 2: a card drawn by one version, clicked after the install moved to another. The
 * click is delivered to the version the install runs (the envelope says which); when that version
 * lacks the action, the member is told so and the card is drawn again by that version, so its
 * buttons are the ones it offers. The same after a rollback. Over real HTTP: one self-hosted server
 * on loopback answers as the version each delivery names, as a server mid-release would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp, defineBlock, ui, type App } from '@platform/sdk';
import { serve, type Served } from '@platform/sdk/node';
import { z } from 'zod';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { refOf, view } from './setup.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const state = z.object({ count: z.int().min(0).default(0) });

const header = (version: number, count: number) => ui.header({ title: `Drawn by v${version}: ${count}` });

/** Version 1 offers Add (adds one) and Close. */
const counterV1 = defineBlock({
  type: 'counter', title: 'Counter', insertable: true, props: z.object({}), state,
  actions: {
    add: { handler: ({ state: s }) => ({ state: { count: s.count + 1 } }) },
    close: { handler: () => ({ final: { summary: 'Closed' } }) },
  },
  render: ({ state: s }) => ui.block({ summary: `v1: ${s.count}` }, [
    header(1, s.count), ui.actions([ui.button({ label: 'Add', action: 'add' }), ui.button({ label: 'Close', action: 'close' })]),
  ]),
});

/** Version 2 adds two and dropped Close (and draws no Close button). */
const counterV2 = defineBlock({
  type: 'counter', title: 'Counter', insertable: true, props: z.object({}), state,
  actions: { add: { handler: ({ state: s }) => ({ state: { count: s.count + 2 } }) } },
  render: ({ state: s }) => ui.block({ summary: `v2: ${s.count}` }, [header(2, s.count), ui.actions([ui.button({ label: 'Add', action: 'add' })])]),
});

function counterApp(endpoint: string, version: 1 | 2): App {
  return defineApp({
    name: 'Counter', slug: 'counter', hosting: 'self', endpoint, scopes: ['blocks:write'], blocks: [version === 1 ? counterV1 : counterV2],
  }, { logger: quiet, now: () => stack.clock.now() });
}

let stack: Stack;
let ws: CreatedWorkspace;
let served: Served;
let appId: string;
let installId: string;
let basic: string;
const apps: Partial<Record<1 | 2, App>> = {};
const env: Record<string, string> = {};
/** The version each block.* delivery named, in order. */
const seen: Array<{ type: string; version: number; action?: string }> = [];

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
  served = await serve({
    async fetch(request, _env, ctx) {
      const envelope = JSON.parse(await request.clone().text()) as { type: string; app: { version: number }; data: { action?: { name: string } } };
      seen.push({ type: envelope.type, version: envelope.app.version, ...(envelope.data.action ? { action: envelope.data.action.name } : {}) });
      // The tests record v1's manifest as the odd versions, v2's as the even ones (rollbacks copy them).
      return apps[envelope.app.version % 2 === 0 ? 2 : 1]!.fetch(request, env, ctx);
    },
  }, { port: 0, env, logger: quiet });
  const endpoint = `${served.url}/platform`;
  apps[1] = counterApp(endpoint, 1);
  apps[2] = counterApp(endpoint, 2);
  const created = await ws.client.post('/apps', { name: 'Counter', slug: 'counter', hosting: 'self', endpoint: { url: endpoint } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
  Object.assign(env, { PLATFORM_SIGNING_SECRET: created.body.signingSecret, PLATFORM_API_URL: stack.url });
  basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
  const first = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: apps[1]!.manifest, target: 'production' });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  installId = (await ws.client.post(`/apps/${appId}/installs`, { version: 1 })).body.install.id;
}, 60_000);
afterAll(async () => {
  await served?.close();
  await stack?.stop();
});

async function publish(version: 1 | 2): Promise<number> {
  const res = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: apps[version]!.manifest, target: 'production' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await moved(res.body.version as number);
  return res.body.version as number;
}

/**
 * The install runs `version` once an admin approved it where it must: adding a (not read-only)
 * action widens access, so moving to v1's manifest waits for approval; dropping one does not.
 */
async function moved(version: number): Promise<void> {
  const install = (await ws.client.get(`/installs/${installId}`)).body.install;
  if (install.pendingVersion === version) expect((await ws.client.post(`/installs/${installId}/approve`, { version })).status).toBe(200);
  expect(await installVersion()).toBe(version);
}
async function rollback(version: number): Promise<number> {
  const res = await stack.v0(ws.apiKey).post(`/apps/${appId}/rollback`, { version });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await moved(res.body.version as number);
  return res.body.version as number;
}
const installVersion = async () => (await ws.client.get(`/installs/${installId}`)).body.install.version as number;

async function insertCard(): Promise<string> {
  const token = (await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } })).body.token as string;
  const conv = (await ws.client.post(`/circles/${(await ws.client.post('/circles', { name: `c${seen.length}`, visibility: 'public' })).body.circle.id}/conversations`, { title: 'Cards' })).body.conversation.id;
  const res = await stack.v0(token).post('/blocks', { type: 'counter', props: {}, conversationId: conv });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function clickOn(blockId: string, tree: unknown, revision: number, label: string) {
  const res = await ws.client.post(`/blocks/${blockId}/click`, { revision, ref: refOf(tree, label) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('a card drawn by an earlier version, clicked after the install moved on', () => {
  let blockId: string;
  let drawnByV1: { tree: unknown; revision: number };

  beforeAll(async () => {
    blockId = await insertCard();
    drawnByV1 = await view(ws.client, blockId);
    expect(JSON.stringify(drawnByV1.tree)).toContain('Drawn by v1: 0');
    expect(await publish(2)).toBe(2);
  });

  it('a kept action is delivered to the version the install runs, and applied', async () => {
    const out = await clickOn(blockId, drawnByV1.tree, drawnByV1.revision, 'Add');
    expect(out.outcome).toBe('applied');
    expect(seen.at(-1)).toEqual({ type: 'block.action', version: 2, action: 'add' });
    // Version 2 adds two.
    expect(out.block.summary).toBe('v2: 2');
    expect(JSON.stringify(out.block.tree)).not.toContain('Close');
  });

  it('a removed action tells the member and the card is drawn again by the running version', async () => {
    // Back to v1's manifest (version 3 copies version 1), a card drawn with Close, then forward.
    expect(await rollback(1)).toBe(3);
    const card = await insertCard();
    const shown = await view(ws.client, card);
    expect(JSON.stringify(shown.tree)).toContain('Close');
    expect(await publish(2)).toBe(4);
    expect(await installVersion()).toBe(4);
    const before = seen.length;
    const out = await clickOn(card, shown.tree, shown.revision, 'Close');
    expect(out.outcome).toBe('failed');
    expect(out.error.message).toBe('The app no longer offers this action: the card was drawn by an earlier version of the app, and is drawn again by the one it runs now.');
    // No action went to the app; a render did, to version 4, and the member holds its drawing.
    expect(seen.slice(before)).toEqual([{ type: 'block.render', version: 4 }]);
    expect(out.block.revision).toBe(shown.revision + 1);
    expect(JSON.stringify(out.block.tree)).not.toContain('Close');
    expect(JSON.stringify(out.block.tree)).toContain('Drawn by v2: 0');
    // The new drawing's buttons work.
    const again = await clickOn(card, out.block.tree, out.block.revision, 'Add');
    expect(again).toMatchObject({ outcome: 'applied', block: { summary: 'v2: 2' } });
  });

  it('after a rollback the same holds: a card naming an action the older version lacks is drawn again by it', async () => {
    // v1's manifest published as version 5 (with Close), a card, then a rollback to version 4 (without).
    expect(await publish(1)).toBe(5);
    const card = await insertCard();
    const shown = await view(ws.client, card);
    expect(JSON.stringify(shown.tree)).toContain('Close');
    expect(await rollback(4)).toBe(6);
    const before = seen.length;
    const out = await clickOn(card, shown.tree, shown.revision, 'Close');
    expect(out.outcome).toBe('failed');
    expect(out.error.message).toContain('drawn again');
    expect(seen.slice(before)).toEqual([{ type: 'block.render', version: 6 }]);
    expect(JSON.stringify(out.block.tree)).not.toContain('Close');
  });
});
