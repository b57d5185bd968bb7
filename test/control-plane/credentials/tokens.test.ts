/**
 * Every credential kind through the one resolver, over HTTP (`GET /v0/whoami` accepts any
 * credential; `access-tokens` accepts only client credentials): valid, expired (manual clock), wrong
 * signature, wrong prefix, a token of another kind, revoked or suspended installs.
 */
import { decodeProtectedHeader, SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { toPayload } from '../../../control-plane/src/apps/tokens/claims.ts';
import { encodedHeader, signEs256Encoded, signHs256Encoded } from '../../../control-plane/src/apps/tokens/jws.ts';
import { createKeyRing } from '../../../control-plane/src/apps/tokens/keyring.ts';
import { basic, seedApp, seedInstall, setInstall, type SeededApp } from './fixtures.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

let stack: Stack;
let ws: { id: string };
let ownerKey: string;
let owner: { id: string };
let app: SeededApp;
let installId: string;

beforeAll(async () => {
  stack = await startStack();
  const created = await stack.createWorkspace();
  ws = created.workspace;
  owner = created.owner;
  ownerKey = created.apiKey;
  app = await seedApp(stack, { workspaceId: ws.id, ownerId: owner.id });
  installId = await seedInstall(stack, { appId: app.id, workspaceId: ws.id, scopes: ['replies:write'] });
});
afterAll(() => stack?.stop());

const whoami = (credential?: string) => stack.v0(credential).get('/whoami');
const mintInstall = (id = installId, appId = app.id) => stack.controlPlane.tokens.mint('install', { installId: id, appId, workspaceId: ws.id });
/** Another app with its own install (one active install per app, workspace and kind). */
async function freshInstall(scopes: string[] = []) {
  const other = await seedApp(stack, { workspaceId: ws.id, ownerId: owner.id });
  return { appId: other.id, installId: await seedInstall(stack, { appId: other.id, workspaceId: ws.id, scopes }) };
}
const swapPrefix = (token: string, prefix: string) => prefix + token.slice(token.indexOf('_') + 1);

describe('the authorization header', () => {
  it('answers 401 PlatformAppTokenMissingError without one', async () => {
    const res = await whoami();
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenMissingError');
  });

  it.each([
    ['another scheme', 'Token platapp_abc'],
    ['a bearer without a value', 'Bearer'],
    ['an unknown prefix', 'Bearer platxyz_abc.def.ghi'],
    ['a prefix without a JWT', 'Bearer platapp_not-a-jwt'],
    ['Basic that is not base64 of id:secret', 'Basic bm9jb2xvbg=='],
  ])('answers 401 PlatformAppTokenInvalidError for %s', async (_name, header) => {
    const res = await stack.v0().request('GET', '/whoami', { headers: { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });
});

describe('member API keys', () => {
  it('resolve to the member', async () => {
    const res = await whoami(ownerKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'member', workspaceId: ws.id, memberId: owner.id, role: 'owner' });
  });

  it('stop working when revoked', async () => {
    const extra = await stack.client(ownerKey).post('/api-keys', { name: 'short-lived' });
    expect((await whoami(extra.body.apiKey)).status).toBe(200);
    await stack.client(ownerKey).delete(`/api-keys/${extra.body.key.id}`);
    const res = await whoami(extra.body.apiKey);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });
});

describe('install tokens (platapp_, one hour)', () => {
  it('carry the install, with the scopes of the install row', async () => {
    const { token, expiresAt } = await mintInstall();
    expect(token.startsWith('platapp_')).toBe(true);
    expect(expiresAt).toBe(stack.clock.now() + HOUR);
    const res = await whoami(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'install', workspaceId: ws.id, appId: app.id, installId, installKind: 'workspace', scopes: ['replies:write'] });
  });

  it('follow a changed approval at once', async () => {
    const fresh = await freshInstall(['blocks:write']);
    const { token } = await mintInstall(fresh.installId, fresh.appId);
    await setInstall(stack, fresh.installId, { scopes: ['blocks:write', 'memories:write'] });
    expect((await whoami(token)).body.scopes).toEqual(['blocks:write', 'memories:write']);
  });

  it('expire after one hour', async () => {
    const { token } = await mintInstall();
    stack.clock.advance(HOUR - 1_000);
    expect((await whoami(token)).status).toBe(200);
    stack.clock.advance(1_000);
    const res = await whoami(token);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('are refused with a wrong signature', async () => {
    const { token } = await mintInstall();
    const [h, p, s] = token.slice('platapp_'.length).split('.') as [string, string, string];
    const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
    expect((await whoami(`platapp_${h}.${p}.${flipped}`)).body._tag).toBe('PlatformAppTokenInvalidError');
    // Signed by someone else's key under our key id.
    const { kid } = decodeProtectedHeader(token.slice('platapp_'.length));
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: installId, app: app.id, ws: ws.id })
      .setProtectedHeader({ alg: 'ES256', kid: kid!, typ: 'JWT' }).setIssuer(stack.config.publicUrl).setAudience('platform:install')
      .setIssuedAt(Math.floor(stack.clock.now() / 1000)).setExpirationTime(Math.floor(stack.clock.now() / 1000) + 600).sign(privateKey);
    const res = await whoami(`platapp_${forged}`);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('are refused unsigned (alg none)', async () => {
    const now = Math.floor(stack.clock.now() / 1000);
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub: installId, app: app.id, ws: ws.id, iss: stack.config.publicUrl, aud: 'platform:install', iat: now, exp: now + 600 })}.`;
    expect((await whoami(`platapp_${unsigned}`)).body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('are refused under another prefix, and other kinds under theirs', async () => {
    const { token } = await mintInstall();
    for (const prefix of ['platint_', 'platdep_', 'platagt_', 'platkey_', 'plat_']) {
      const res = await whoami(swapPrefix(token, prefix));
      expect(res.status, prefix).toBe(401);
      expect(res.body._tag, prefix).toBe('PlatformAppTokenInvalidError');
    }
    const deploy = await stack.controlPlane.tokens.mint('deploy', { appId: app.id, previewOnly: false, identityId: null });
    expect((await whoami(swapPrefix(deploy.token, 'platapp_'))).body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('answer 403 PlatformAppInstallRevokedError once the install is uninstalled or suspended', async () => {
    for (const status of ['uninstalled', 'suspended'] as const) {
      const fresh = await freshInstall();
      const { token } = await mintInstall(fresh.installId, fresh.appId);
      await setInstall(stack, fresh.installId, { status });
      const res = await whoami(token);
      expect(res.status, status).toBe(403);
      expect(res.body._tag, status).toBe('PlatformAppInstallRevokedError');
    }
  });

  it('are not accepted where only client credentials are', async () => {
    const { token } = await mintInstall();
    const res = await stack.v0(token).post(`/apps/installs/${installId}/access-tokens`, {});
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
    expect(res.body.message).toMatch(/does not accept an install token/);
  });
});

describe('interaction tokens (platint_, 15 minutes)', () => {
  const mint = (bound: { blockId: string | null; invocationId: string | null }, id = installId, appId = app.id) =>
    stack.controlPlane.tokens.mint('interaction', { installId: id, appId, workspaceId: ws.id, ...bound });

  it('are bound to one block or one invocation', async () => {
    const block = await mint({ blockId: 'blk_1', invocationId: null });
    expect(block.token.startsWith('platint_')).toBe(true);
    expect(block.expiresAt).toBe(stack.clock.now() + 15 * MINUTE);
    expect((await whoami(block.token)).body).toEqual({ kind: 'interaction', workspaceId: ws.id, appId: app.id, installId, blockId: 'blk_1', invocationId: null });
    const run = await mint({ blockId: null, invocationId: 'inv_1' });
    expect((await whoami(run.token)).body).toMatchObject({ blockId: null, invocationId: 'inv_1' });
    await expect(mint({ blockId: 'blk_1', invocationId: 'inv_1' })).rejects.toThrow(/exactly one/);
  });

  it('answer 401 PlatformAppInteractionExpiredError after 15 minutes', async () => {
    const { token } = await mint({ blockId: 'blk_2', invocationId: null });
    stack.clock.advance(15 * MINUTE);
    const res = await whoami(token);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppInteractionExpiredError');
  });

  it('are refused with a wrong signature or under another prefix (never "expired")', async () => {
    const { token } = await mint({ blockId: 'blk_3', invocationId: null });
    const tampered = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await whoami(tampered)).body._tag).toBe('PlatformAppTokenInvalidError');
    expect((await whoami(swapPrefix(token, 'platapp_'))).body._tag).toBe('PlatformAppTokenInvalidError');
    stack.clock.advance(15 * MINUTE);
    expect((await whoami(tampered)).body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('are HMAC-signed (HS256) under the current key id, which the JWKS lists', async () => {
    const { token } = await mint({ blockId: 'blk_5', invocationId: null });
    const header = decodeProtectedHeader(token.slice('platint_'.length));
    expect(header.alg).toBe('HS256');
    const { keys } = await stack.controlPlane.tokens.jwks();
    expect(keys.map((k) => k.kid)).toContain(header.kid);
    expect(keys.every((k) => !('d' in k) && !('k' in k))).toBe(true);
  });

  it('take the secret every replica derives, and only as interaction tokens', async () => {
    // A second ring over the same rows (another replica) derives the same secret from the sealed key.
    const replica = createKeyRing({ db: stack.db, clock: stack.clock, secrets: stack.controlPlane.secrets, rotationMs: 3_600_000 });
    const { kid, key, hmac } = await replica.signingKey();
    const iat = Math.floor(stack.clock.now() / 1000);
    const registered = { iss: stack.config.publicUrl, iat, exp: iat + 600, jti: 'j1' };
    const hs = encodedHeader({ alg: 'HS256', kid, typ: 'JWT' });
    const interaction = toPayload('interaction', { installId, appId: app.id, workspaceId: ws.id, blockId: 'blk_6', invocationId: null });
    const byReplica = signHs256Encoded(hs, { ...interaction, ...registered, aud: 'platform:interaction' }, hmac);
    expect((await whoami(`platint_${byReplica}`)).body).toMatchObject({ kind: 'interaction', blockId: 'blk_6' });
    // ES256 interaction tokens (minted before they were HMAC-signed) verify for their 15 minutes.
    const es = signEs256Encoded(encodedHeader({ alg: 'ES256', kid, typ: 'JWT' }), { ...interaction, ...registered, aud: 'platform:interaction' }, key);
    expect((await whoami(`platint_${es}`)).body).toMatchObject({ kind: 'interaction', blockId: 'blk_6' });
    // The kinds that are ES256 never take an HMAC, not even one made with the right secret.
    const install = toPayload('install', { installId, appId: app.id, workspaceId: ws.id });
    const asInstall = signHs256Encoded(hs, { ...install, ...registered, aud: 'platform:install' }, hmac);
    expect((await whoami(`platapp_${asInstall}`)).body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('are refused with another HMAC secret, the public key as the secret included', async () => {
    const { token } = await mint({ blockId: 'blk_7', invocationId: null });
    const { kid } = decodeProtectedHeader(token.slice('platint_'.length));
    const jwk = (await stack.controlPlane.tokens.jwks()).keys.find((k) => k.kid === kid)!;
    const claims = { sub: installId, app: app.id, ws: ws.id, blk: 'blk_7' };
    for (const secret of [new TextEncoder().encode('x'.repeat(32)), new TextEncoder().encode(JSON.stringify(jwk)), Buffer.from(jwk.x, 'base64url')]) {
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: kid!, typ: 'JWT' }).setIssuer(stack.config.publicUrl)
        .setAudience('platform:interaction').setIssuedAt(Math.floor(stack.clock.now() / 1000)).setExpirationTime(Math.floor(stack.clock.now() / 1000) + 600).sign(secret);
      expect((await whoami(`platint_${forged}`)).body._tag).toBe('PlatformAppTokenInvalidError');
    }
  });

  it('answer 403 once the install is suspended', async () => {
    const fresh = await freshInstall();
    const { token } = await mint({ blockId: 'blk_4', invocationId: null }, fresh.installId, fresh.appId);
    await setInstall(stack, fresh.installId, { status: 'suspended' });
    expect((await whoami(token)).body._tag).toBe('PlatformAppInstallRevokedError');
  });
});

describe('deploy tokens (platdep_, 15 minutes)', () => {
  it('carry one app and whether they are preview-only, and expire', async () => {
    const { token, expiresAt } = await stack.controlPlane.tokens.mint('deploy', { appId: app.id, previewOnly: true, identityId: null });
    expect(token.startsWith('platdep_')).toBe(true);
    expect(expiresAt).toBe(stack.clock.now() + 15 * MINUTE);
    expect((await whoami(token)).body).toEqual({ kind: 'deploy', appId: app.id, previewOnly: true });
    stack.clock.advance(15 * MINUTE);
    const res = await whoami(token);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });
});

describe('agent builder tokens (platagt_, one turn)', () => {
  it('are minted by a member for themselves through the client API, and expire', async () => {
    const res = await stack.client(ownerKey).post('/agent-builder-tokens');
    expect(res.status).toBe(201);
    expect(res.body.token.startsWith('platagt_')).toBe(true);
    expect(Date.parse(res.body.expiresAt)).toBe(stack.clock.now() + 15 * MINUTE);
    expect((await whoami(res.body.token)).body).toEqual({ kind: 'agent', workspaceId: ws.id, memberId: owner.id });
    expect((await whoami(swapPrefix(res.body.token, 'platdep_'))).body._tag).toBe('PlatformAppTokenInvalidError');
    stack.clock.advance(15 * MINUTE);
    expect((await whoami(res.body.token)).body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('need a member API key to mint', async () => {
    const { token } = await mintInstall();
    expect((await stack.client(token).post('/agent-builder-tokens')).status).toBe(401);
    expect((await stack.client().post('/agent-builder-tokens')).body._tag).toBe('PlatformAppTokenMissingError');
  });
});

describe('client credentials', () => {
  it('resolve to the app', async () => {
    const res = await stack.v0().request('GET', '/whoami', { headers: { authorization: basic(app.clientId, app.clientSecret) } });
    expect(res.body).toEqual({ kind: 'client', appId: app.id });
  });
});
