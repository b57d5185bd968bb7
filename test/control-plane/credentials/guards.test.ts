/**
 * The guards every `/v0` route uses: the credential matrix of the tooling endpoints (a table, one
 * row per credential), scope checks, and the reach rule wired to the database.
 */
import { PlatformError } from '@platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../control-plane/src/core/auth/caller.ts';
import {
  assertCanDeploy, assertCanManageApp, canDeploy, canDevSync, canManageApp, createReachGuard, mayRevealSigningSecret, requireScope,
} from '../../../control-plane/src/apps/guards/index.ts';
import { V0_SCHEME_KINDS } from '../../../control-plane/src/core/http/v0-auth.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp } from './fixtures.ts';

const APP = { id: 'app_a', workspace_id: 'ws_1', owner_member_id: 'mem_dev' };
const W = APP.workspace_id;

// One row per credential: may it touch the app, deploy a preview, deploy production, sync its dev
// app, see the signing secret, call tooling endpoints, call check/trees?
type Row = [name: string, caller: Caller, manage: string, preview: string, production: string, devSync: string, reveal: boolean, tooling: boolean, checkTrees: boolean];
const MATRIX: Row[] = [
  ['member key of the app owner', { kind: 'member', workspaceId: W, memberId: 'mem_dev', role: 'member' }, 'allowed', 'allowed', 'allowed', 'allowed', true, true, true],
  ['member key of a workspace admin', { kind: 'member', workspaceId: W, memberId: 'mem_adm', role: 'admin' }, 'allowed', 'allowed', 'allowed', 'allowed', true, true, true],
  ['member key of a workspace owner', { kind: 'member', workspaceId: W, memberId: 'mem_own', role: 'owner' }, 'allowed', 'allowed', 'allowed', 'allowed', true, true, true],
  ['member key of another member', { kind: 'member', workspaceId: W, memberId: 'mem_x', role: 'member' }, 'not-found', 'not-found', 'not-found', 'allowed', true, true, true],
  ['member key of an admin of another workspace', { kind: 'member', workspaceId: 'ws_2', memberId: 'mem_y', role: 'admin' }, 'not-found', 'not-found', 'not-found', 'allowed', true, true, true],
  ['member key of the owner id in another workspace', { kind: 'member', workspaceId: 'ws_2', memberId: 'mem_dev', role: 'owner' }, 'not-found', 'not-found', 'not-found', 'allowed', true, true, true],
  ['deploy token for the app', { kind: 'deploy', appId: 'app_a', previewOnly: false }, 'allowed', 'allowed', 'allowed', 'target-forbidden', false, true, true],
  ['preview-only deploy token for the app', { kind: 'deploy', appId: 'app_a', previewOnly: true }, 'allowed', 'allowed', 'target-forbidden', 'target-forbidden', false, true, true],
  ['deploy token for another app', { kind: 'deploy', appId: 'app_b', previewOnly: false }, 'not-found', 'not-found', 'not-found', 'target-forbidden', false, true, true],
  ['preview-only deploy token for another app', { kind: 'deploy', appId: 'app_b', previewOnly: true }, 'not-found', 'not-found', 'not-found', 'target-forbidden', false, true, true],
  ['agent builder token of the app owner', { kind: 'agent', workspaceId: W, memberId: 'mem_dev' }, 'allowed', 'allowed', 'target-forbidden', 'allowed', false, true, true],
  ['agent builder token of a workspace admin', { kind: 'agent', workspaceId: W, memberId: 'mem_adm' }, 'not-found', 'not-found', 'not-found', 'allowed', false, true, true],
  ['install token of the app', { kind: 'install', workspaceId: W, appId: 'app_a', installId: 'ins_1', installKind: 'workspace', scopes: [] }, 'not-found', 'not-found', 'not-found', 'not-accepted', false, false, true],
  ['interaction token of the app', { kind: 'interaction', workspaceId: W, appId: 'app_a', installId: 'ins_1', blockId: 'blk', invocationId: null, unitKey: 'u' }, 'not-found', 'not-found', 'not-found', 'not-accepted', false, false, false],
  ['client credentials of the app', { kind: 'client', appId: 'app_a' }, 'not-found', 'not-found', 'not-found', 'not-accepted', false, false, false],
];

describe('the tooling credential matrix', () => {
  it.each(MATRIX)('%s', (_name, caller, manage, preview, production, devSync, reveal, tooling, checkTrees) => {
    expect(canManageApp(caller, APP)).toBe(manage);
    expect(canDeploy(caller, APP, 'preview')).toBe(preview);
    expect(canDeploy(caller, APP, 'production')).toBe(production);
    expect(canDevSync(caller)).toBe(devSync);
    expect(mayRevealSigningSecret(caller)).toBe(reveal);
    expect((V0_SCHEME_KINDS.tooling as readonly string[]).includes(caller.kind)).toBe(tooling);
    expect((V0_SCHEME_KINDS.toolingOrInstall as readonly string[]).includes(caller.kind)).toBe(checkTrees);
    // No credential reaches an app that does not exist.
    expect(canDeploy(caller, undefined, 'preview')).toBe('not-found');
  });

  it('answers the spec\'s errors when asserting', () => {
    const error = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err as PlatformError;
      }
      throw new Error('did not throw');
    };
    const notFound = error(() => assertCanDeploy({ kind: 'deploy', appId: 'app_b', previewOnly: true }, APP, 'production'));
    expect([notFound.tag, notFound.status]).toEqual(['PlatformAppNotFoundError', 404]);
    const forbidden = error(() => assertCanDeploy({ kind: 'deploy', appId: 'app_a', previewOnly: true }, APP, 'production'));
    expect([forbidden.tag, forbidden.status]).toEqual(['PlatformAppDeployTargetForbiddenError', 403]);
    const agent = error(() => assertCanDeploy({ kind: 'agent', workspaceId: W, memberId: 'mem_dev' }, APP, 'production'));
    expect(agent.tag).toBe('PlatformAppDeployTargetForbiddenError');
    expect(assertCanDeploy({ kind: 'member', workspaceId: W, memberId: 'mem_dev', role: 'member' }, APP, 'production')).toBe(APP);
    expect(error(() => assertCanManageApp({ kind: 'client', appId: 'app_a' }, APP)).tag).toBe('PlatformAppNotFoundError');
  });
});

describe('requireScope', () => {
  it('passes a granted scope and answers 403 PlatformAppScopeMissingError with `scope` otherwise', () => {
    expect(() => requireScope({ scopes: ['replies:write'] }, 'replies:write')).not.toThrow();
    try {
      requireScope({ scopes: ['replies:write'] }, 'blocks:write');
      throw new Error('did not throw');
    } catch (err) {
      const e = err as PlatformError;
      expect(e.status).toBe(403);
      expect(e.toBody()).toEqual({ _tag: 'PlatformAppScopeMissingError', message: expect.any(String), path: [], scope: 'blocks:write' });
    }
  });
});

describe('the reach guard', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it('answers a reachable circle and the caller\'s not-found error otherwise', async () => {
    const { workspace, apiKey, client } = await stack.createWorkspace();
    const dev = await stack.addMember(apiKey, { role: 'member' });
    const app = await seedApp(stack, { workspaceId: workspace.id, ownerId: dev.member.id });
    const circle = async (visibility: 'public' | 'private', by = client): Promise<string> => {
      const res = await by.post('/circles', { name: `A ${visibility} circle`, visibility });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      return res.body.circle.id;
    };
    const pub = await circle('public');
    const priv = await circle('private');
    const invited = await circle('private');
    expect((await client.put(`/circles/${invited}/app-invitations/${app.id}`)).status).toBeLessThan(300);
    const devsPublic = await circle('public', dev.client);
    const other = await stack.createWorkspace();
    const foreign = await circle('public', other.client);

    const reach = createReachGuard({ db: stack.db });
    const caller = (installKind: 'workspace' | 'dev') => ({ workspaceId: workspace.id, appId: app.id, installKind });
    const notFound = (id: string) => new PlatformError('PlatformAppCircleNotFoundError', 'No such circle', { fields: { circleIds: [id] } });
    const outcome = async (installKind: 'workspace' | 'dev', id: string) =>
      reach.assertReachable(caller(installKind), id, notFound).then((c) => c.id, (err: PlatformError) => err.tag);

    expect(await outcome('workspace', pub)).toBe(pub);
    expect(await outcome('workspace', priv)).toBe('PlatformAppCircleNotFoundError');
    expect(await outcome('workspace', invited)).toBe(invited);
    expect(await outcome('workspace', foreign)).toBe('PlatformAppCircleNotFoundError');
    expect(await outcome('workspace', 'cir_missing')).toBe('PlatformAppCircleNotFoundError');
    // A dev install reaches only circles its developer (the app's owner) belongs to.
    expect(await outcome('dev', pub)).toBe('PlatformAppCircleNotFoundError');
    expect(await outcome('dev', devsPublic)).toBe(devsPublic);
  });
});
