/**
 * Tokens verified once per process (apps/credentials/verified-tokens.ts): what the signature proves
 * is kept, and everything that can change still applies on the very next call with a token already
 * verified: an uninstall (through the client API), a suspension, a new approval, and the token's
 * expiry (manual clock). Over HTTP against real Postgres; storage calls are what repeats a token most.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedTokens } from '../../../control-plane/src/apps/credentials/verified-tokens.ts';
import type { TokenService } from '../../../control-plane/src/apps/tokens/service.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall, setInstall } from './fixtures.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
});
afterAll(() => stack?.stop());

/** An app of its own with an install, and an install token for it. */
async function installed(scopes: string[] = []) {
  const app = await seedApp(stack, { workspaceId: ws.workspace.id, ownerId: ws.owner.id });
  const installId = await seedInstall(stack, { appId: app.id, workspaceId: ws.workspace.id, scopes });
  const { token } = await stack.controlPlane.tokens.mint('install', { installId, appId: app.id, workspaceId: ws.workspace.id });
  return { appId: app.id, installId, token };
}
const whoami = (token: string) => stack.v0(token).get('/whoami');
const storageGet = (token: string) => stack.v0(token).post('/storage/get', { keys: ['k'] });

describe('a token already verified by this process', () => {
  it('is refused on the next call once its install is uninstalled through the client API', async () => {
    const { installId, token } = await installed();
    for (let i = 0; i < 3; i++) expect((await storageGet(token)).status).toBe(200);
    const uninstalled = await ws.client.delete(`/installs/${installId}`);
    expect(uninstalled.status, JSON.stringify(uninstalled.body)).toBeLessThan(300);
    const res = await storageGet(token);
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformAppInstallRevokedError');
  });

  it('is refused on the next call once its install is suspended, and works again when it is active', async () => {
    const { installId, token } = await installed();
    expect((await whoami(token)).status).toBe(200);
    await setInstall(stack, installId, { status: 'suspended' });
    expect((await whoami(token)).body._tag).toBe('PlatformAppInstallRevokedError');
    expect((await storageGet(token)).body._tag).toBe('PlatformAppInstallRevokedError');
    await setInstall(stack, installId, { status: 'active' });
    expect((await whoami(token)).status).toBe(200);
  });

  it('carries the scopes approved now, not those of its first call', async () => {
    const { installId, token } = await installed(['blocks:write']);
    expect((await whoami(token)).body.scopes).toEqual(['blocks:write']);
    await setInstall(stack, installId, { scopes: ['blocks:write', 'memories:write'] });
    expect((await whoami(token)).body.scopes).toEqual(['blocks:write', 'memories:write']);
  });

  it('expires when its token does: an install token after one hour, an interaction token after 15 minutes', async () => {
    const { token, appId, installId } = await installed();
    const interaction = await stack.controlPlane.tokens.mint('interaction', { installId, appId, workspaceId: ws.workspace.id, blockId: 'blk_1', invocationId: null });
    stack.clock.advance(15 * MINUTE - 1_000);
    expect((await whoami(interaction.token)).status).toBe(200);
    stack.clock.advance(1_000);
    expect((await whoami(interaction.token)).body._tag).toBe('PlatformAppInteractionExpiredError');
    stack.clock.advance(HOUR - 15 * MINUTE - 1_000);
    expect((await storageGet(token)).status).toBe(200);
    stack.clock.advance(1_000);
    const res = await storageGet(token);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });
});

describe('createVerifiedTokens', () => {
  /** The stack's real token service, counting the verifications it makes. */
  function counted() {
    const real = stack.controlPlane.tokens;
    const counter = { verifications: 0 };
    const tokens: TokenService = { ...real, verify: (token) => { counter.verifications++; return real.verify(token); } };
    return { tokens, counter };
  }

  it('verifies an install or interaction token once while it holds, and other kinds every time', async () => {
    const { tokens, counter } = counted();
    const verified = createVerifiedTokens({ tokens, clock: stack.clock });
    const { token, appId } = await installed();
    const first = await verified.verify(token);
    expect(await verified.verify(token)).toEqual(first);
    expect(counter.verifications).toBe(1);
    const deploy = await tokens.mint('deploy', { appId, previewOnly: false, identityId: null });
    await verified.verify(deploy.token);
    await verified.verify(deploy.token);
    expect(counter.verifications).toBe(3);
  });

  it('keeps nothing of a token that does not verify, and keeps at most its bound, oldest leaving first', async () => {
    const { tokens, counter } = counted();
    const verified = createVerifiedTokens({ tokens, clock: stack.clock, maxEntries: 2 });
    const a = await installed();
    const tampered = a.token.slice(0, -4) + (a.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    await expect(verified.verify(tampered)).rejects.toThrow();
    await expect(verified.verify(tampered)).rejects.toThrow();
    expect(counter.verifications).toBe(2);
    const [b, c] = [await installed(), await installed()];
    for (const t of [a.token, b.token, c.token]) await verified.verify(t);
    counter.verifications = 0;
    await verified.verify(c.token);
    await verified.verify(b.token);
    expect(counter.verifications).toBe(0);
    await verified.verify(a.token);
    expect(counter.verifications, 'the oldest entry left').toBe(1);
  });

  it('verifies again once the token expired, which refuses it', async () => {
    const { tokens, counter } = counted();
    const verified = createVerifiedTokens({ tokens, clock: stack.clock });
    const { token } = await installed();
    await verified.verify(token);
    stack.clock.advance(HOUR);
    await expect(verified.verify(token)).rejects.toMatchObject({ reason: 'expired' });
    expect(counter.verifications).toBe(2);
  });
});
