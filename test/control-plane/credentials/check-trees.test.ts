/**
 * `POST /v0/apps/check/trees`: the service's tree validator over HTTP, for every credential the
 * spec allows, with its rate limit of 60 a minute per caller (sliding window on the Kv seam).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createMemoryKv } from '@platform/control-plane';
import { rateLimit } from '../../../control-plane/src/core/rate-limit/rate-limit.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { basic, seedApp, seedInstall, type SeededApp } from './fixtures.ts';

const TREE = {
  type: 'uiBlock',
  attrs: { catalog: 1, summary: 'Deploy #42 is waiting for approval' },
  content: [
    { type: 'uiHeader', content: [{ type: 'uiHeaderTitle', content: [{ type: 'text', text: 'Deploy #42' }] }] },
    { type: 'uiText', content: [{ type: 'text', text: 'Ready for production' }] },
    { type: 'uiActions', content: [{ type: 'uiButton', attrs: { buttonType: 'action', label: 'Approve', action: { ref: 'a0' } } }] },
  ],
};
const ACTIONS = { a0: { name: 'approve' } };

let stack: Stack;
let ownerKey: string;
let ws: { id: string };
let owner: { id: string };
let app: SeededApp;

beforeAll(async () => {
  stack = await startStack();
  ({ workspace: ws, owner, apiKey: ownerKey } = await stack.createWorkspace());
  app = await seedApp(stack, { workspaceId: ws.id, ownerId: owner.id });
});
afterAll(() => stack?.stop());

const check = (credential: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  stack.v0(credential).request('POST', '/apps/check/trees', { body, headers });

describe('check/trees', () => {
  it('answers { valid: true } for a valid tree and its actions', async () => {
    const res = await check(ownerKey, { tree: TREE, actions: ACTIONS });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true });
  });

  it('answers the first problem with the spec\'s message and its path in the tree', async () => {
    const missingAction = await check(ownerKey, { tree: TREE, actions: {} });
    expect(missingAction.status).toBe(200);
    expect(missingAction.body).toMatchObject({ valid: false, message: expect.any(String), path: expect.any(Array) });
    const noActions = { ...TREE, content: TREE.content.slice(0, 2) };
    expect((await check(ownerKey, { tree: noActions })).body).toEqual({ valid: false, message: '<Block> needs one <Actions>', path: [] });
    const label = structuredClone(TREE);
    (label.content[2]!.content![0] as { attrs: { label: string } }).attrs.label = '   ';
    const res = await check(ownerKey, { tree: label, actions: ACTIONS });
    expect(res.body).toEqual({ valid: false, message: 'Labels need visible text', path: ['content', 2, 'content', 0, 'attrs', 'label'] });
  });

  it('answers a hostile 60,000-deep tree (as deep as fits the 1 MB body) with the depth message, not a 400', async () => {
    // JSON.stringify recurses, so the body text is built by hand.
    const deep = `${'{"content":['.repeat(60_000)}${']}'.repeat(60_000)}`;
    const body = `{"tree":{"type":"uiBlock","attrs":{"catalog":1,"summary":"deep"},"content":[${deep}]}}`;
    const res = await stack.v0(ownerKey).request('POST', '/apps/check/trees', { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, message: 'Blocks nest at most 12 levels deep' });
  });

  it('accepts member API keys, install tokens, deploy tokens and agent builder tokens', async () => {
    const installId = await seedInstall(stack, { appId: app.id, workspaceId: ws.id });
    const tokens = stack.controlPlane.tokens;
    const credentials = [
      (await tokens.mint('install', { installId, appId: app.id, workspaceId: ws.id })).token,
      (await tokens.mint('deploy', { appId: app.id, previewOnly: true, identityId: null })).token,
      (await stack.client(ownerKey).post('/agent-builder-tokens')).body.token as string,
    ];
    for (const credential of credentials) {
      const res = await check(credential, { tree: TREE, actions: ACTIONS });
      expect(res.status, credential.slice(0, 8)).toBe(200);
      expect(res.body).toEqual({ valid: true });
    }
  });

  it('refuses other credentials and none', async () => {
    const other = await seedApp(stack, { workspaceId: ws.id, ownerId: owner.id });
    const installId = await seedInstall(stack, { appId: other.id, workspaceId: ws.id });
    const interaction = await stack.controlPlane.tokens.mint('interaction', { installId, appId: other.id, workspaceId: ws.id, blockId: 'blk', invocationId: null });
    expect((await stack.v0(interaction.token).get('/whoami')).status).toBe(200);
    expect((await check(undefined, { tree: TREE })).body._tag).toBe('PlatformAppTokenMissingError');
    for (const res of [
      await check(interaction.token, { tree: TREE }),
      await check(undefined, { tree: TREE }, { authorization: basic(other.clientId, other.clientSecret) }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
    }
  });

  it('rejects a body outside its schema with 400', async () => {
    const res = await check(ownerKey, { tree: TREE, extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
  });

  it('allows 60 requests a minute per caller; the 61st answers 429 with retry-after', async () => {
    const member = await stack.addMember(ownerKey, { role: 'member' });
    for (let i = 1; i <= 60; i++) {
      const res = await check(member.apiKey, { tree: TREE, actions: ACTIONS });
      expect(res.status, `request ${i}`).toBe(200);
    }
    const refused = await check(member.apiKey, { tree: TREE, actions: ACTIONS });
    expect(refused.status).toBe(429);
    expect(refused.body._tag).toBe('PlatformApiRateLimitExceededError');
    expect(refused.headers.get('retry-after')).toBe('60');
    // Another caller has its own budget; a new key of the same member does not.
    expect((await check(ownerKey, { tree: TREE, actions: ACTIONS })).status).toBe(200);
    const second = await member.client.post('/api-keys', { name: 'second' });
    expect((await check(second.body.apiKey, { tree: TREE, actions: ACTIONS })).status).toBe(429);
    // The window slides: a minute after the first request, requests pass again.
    stack.clock.advance(60_000);
    expect((await check(member.apiKey, { tree: TREE, actions: ACTIONS })).status).toBe(200);
  });
});

describe('rateLimit', () => {
  it('slides its window with the clock and counts only allowed requests', async () => {
    const clock = createManualClock(0);
    const kv = createMemoryKv({ clock });
    const hit = () => rateLimit(kv, { key: 'k', limit: 2, windowMs: 1_000 }).then(() => 'ok', (err) => `${err.tag} ${err.retryAfterSeconds}`);
    expect(await hit()).toBe('ok');
    clock.advance(600);
    expect(await hit()).toBe('ok');
    expect(await hit()).toBe('PlatformApiRateLimitExceededError 1');
    clock.advance(400);
    // The first hit left the window; the refused one never counted.
    expect(await hit()).toBe('ok');
    expect(await hit()).toBe('PlatformApiRateLimitExceededError 1');
    await kv.close();
  });
});
