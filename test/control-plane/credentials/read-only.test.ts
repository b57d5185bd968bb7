/**
 * A replay's read-only tokens (claim `ro`): every `/v0` route that writes refuses them with 403
 * `PlatformReplayReadOnlyError` before doing anything, reads and read-only POSTs (a block query, a
 * tree check) work, and an ordinary token of the same install still writes. One row per route kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall } from './fixtures.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let claims: { installId: string; appId: string; workspaceId: string };

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
  const app = await seedApp(stack, { workspaceId: ws.workspace.id, ownerId: ws.owner.id });
  const installId = await seedInstall(stack, { appId: app.id, workspaceId: ws.workspace.id, scopes: ['memories:write', 'notifications:write', 'blocks:write'] });
  claims = { installId, appId: app.id, workspaceId: ws.workspace.id };
});
afterAll(() => stack?.stop());

const readOnly = async () => (await stack.controlPlane.tokens.mint('install', { ...claims, readOnly: true })).token;
const memories = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from memories where workspace_id = $1', [ws.workspace.id])).rows[0]!.n);

describe('read-only install tokens', () => {
  it.each([
    ['POST', '/memories', { text: 'kept?' }],
    ['POST', '/notifications', { memberIds: [], title: 'x' }],
    ['PUT', '/search/objects', { kind: 'doc', externalId: '1' }],
    ['PATCH', '/blocks/blk_nope', { state: {} }],
    ['DELETE', '/search/objects', {}],
  ] as const)('%s %s answers 403 PlatformReplayReadOnlyError', async (method, path, body) => {
    const res = await stack.v0(await readOnly()).request(method, path, { body });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ _tag: 'PlatformReplayReadOnlyError', message: expect.stringContaining('replay'), path: [] });
  });

  it('reads, and POSTs that only read, work', async () => {
    const token = await readOnly();
    expect((await stack.v0(token).get('/whoami')).status).toBe(200);
    expect((await stack.v0(token).post('/blocks/query', {})).status).toBe(200);
    expect((await stack.v0(token).post('/apps/check/trees', { tree: { type: 'uiBlock', attrs: { summary: 'x' }, content: [] } })).status).not.toBe(403);
  });

  it('changes nothing, while an ordinary token of the same install writes', async () => {
    const before = await memories();
    expect((await stack.v0(await readOnly()).post('/memories', { text: 'during a replay' })).status).toBe(403);
    expect(await memories()).toBe(before);
    const { token } = await stack.controlPlane.tokens.mint('install', claims);
    expect((await stack.v0(token).post('/memories', { text: 'for real' })).status).toBe(201);
    expect(await memories()).toBe(before + 1);
  });

  it('binds interaction tokens the same way', async () => {
    const { token } = await stack.controlPlane.tokens.mint('interaction', { ...claims, blockId: 'blk_1', invocationId: null, readOnly: true });
    const res = await stack.v0(token).patch('/blocks/blk_1', { state: {} });
    expect(res.body._tag).toBe('PlatformReplayReadOnlyError');
  });
});
