/**
 * Signing keys: the JWKS document, rotation on a period (injected clock), old keys verifying until
 * every token they signed has expired, replicas agreeing on one new key, and per-call MCP tokens
 * verified the way an MCP server would (jose against the published JWKS).
 */
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyRing, PREPUBLISH_MS } from '../../../control-plane/src/apps/tokens/keyring.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall } from './fixtures.ts';

const MINUTE = 60_000;

let stack: Stack;
let claims: { installId: string; appId: string; workspaceId: string };

beforeAll(async () => {
  stack = await startStack({ env: { TOKEN_KEY_ROTATION_HOURS: '1' } });
  const { workspace, owner } = await stack.createWorkspace();
  const app = await seedApp(stack, { workspaceId: workspace.id, ownerId: owner.id });
  claims = { installId: await seedInstall(stack, { appId: app.id, workspaceId: workspace.id }), appId: app.id, workspaceId: workspace.id };
});
afterAll(() => stack?.stop());

const jwks = async () => {
  const res = await stack.fetch('/.well-known/platform/jwks.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  return (await res.json()) as { keys: Array<Record<string, string>> };
};
const kidOf = (token: string) => decodeProtectedHeader(token.slice(token.indexOf('_') + 1)).kid;
const whoami = (token: string) => stack.v0(token).get('/whoami');

describe('the JWKS', () => {
  it('publishes EC P-256 ES256 signing keys without private parts', async () => {
    const { keys } = await jwks();
    expect(keys.length).toBe(1);
    expect(Object.keys(keys[0]!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
  });
});

describe('rotation', () => {
  it('publishes the next key before it signs, and old tokens verify until they expire', async () => {
    const start = stack.clock.now();
    const first = (await jwks()).keys[0]!.kid;

    stack.clock.set(start + 50 * MINUTE);
    const old = await stack.controlPlane.tokens.mint('install', claims);
    expect(kidOf(old.token)).toBe(first);

    // Rotation is due five minutes before the period ends: the next key is published, not yet signing.
    stack.clock.set(start + 60 * MINUTE - PREPUBLISH_MS + 1);
    const listed = (await jwks()).keys.map((k) => k.kid);
    expect(listed.length).toBe(2);
    expect(listed).toContain(first);
    const second = listed.find((k) => k !== first)!;
    expect(kidOf((await stack.controlPlane.tokens.mint('install', claims)).token)).toBe(first);

    // Once it activates it signs; the old key still verifies and stays published.
    stack.clock.set(start + 60 * MINUTE + 2);
    const fresh = await stack.controlPlane.tokens.mint('install', claims);
    expect(kidOf(fresh.token)).toBe(second);
    expect((await whoami(old.token)).status).toBe(200);
    expect((await whoami(fresh.token)).status).toBe(200);
    expect((await jwks()).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([first, second]));

    // The old token's hour runs out; the old key leaves the JWKS once every token it signed has expired.
    stack.clock.set(old.expiresAt);
    expect((await whoami(old.token)).body._tag).toBe('PlatformAppTokenInvalidError');
    expect((await jwks()).keys.map((k) => k.kid)).toContain(first);
    stack.clock.set(start + 60 * MINUTE + PREPUBLISH_MS + 60 * MINUTE + 1);
    const later = (await jwks()).keys.map((k) => k.kid);
    expect(later).not.toContain(first);
    expect(later).toContain(second);
  });

  it('lets replicas that rotate at once agree on one key', async () => {
    const replica = createKeyRing({ db: stack.db, clock: stack.clock, secrets: stack.controlPlane.secrets, rotationMs: 3_600_000 });
    stack.clock.advance(2 * 3_600_000);
    const [a, b] = await Promise.all([replica.signingKey(), stack.controlPlane.tokens.jwks()]);
    const published = b.keys.map((k) => k.kid);
    expect(published).toContain(a.kid);
    const pending = published.filter((k) => k !== a.kid);
    // Exactly one new key was created, whichever replica got the lock first.
    const { rows } = await stack.db.query<{ n: number }>('select count(*)::int as n from signing_keys where activates_at > $1', [new Date(stack.clock.now())]);
    expect(rows[0]!.n).toBe(1);
    expect(pending.length).toBe(1);
    stack.clock.advance(PREPUBLISH_MS);
    const next = await replica.signingKey();
    expect(pending).toContain(next.kid);
    const minted = await stack.controlPlane.tokens.mint('install', claims);
    expect(kidOf(minted.token)).toBe(next.kid);
  });
});

describe('per-call MCP tokens', () => {
  it('verify with the published JWKS for the MCP URL as audience', async () => {
    const mcpUrl = 'https://mcp.example.com/mcp';
    const { token, expiresAt } = await stack.controlPlane.tokens.mintMcpCallToken({ mcpUrl, ...claims, memberId: 'mem_1' });
    expect(expiresAt).toBe(Math.floor((stack.clock.now() + 5 * MINUTE) / 1000) * 1000);
    const keys = createLocalJWKSet((await jwks()) as never);
    const { payload } = await jwtVerify(token, keys, { audience: mcpUrl, issuer: stack.config.publicUrl, currentDate: new Date(stack.clock.now()) });
    expect(payload).toMatchObject({ sub: claims.installId, app: claims.appId, ws: claims.workspaceId, mem: 'mem_1' });
    await expect(jwtVerify(token, keys, { audience: 'https://other.example.com/mcp', currentDate: new Date(stack.clock.now()) })).rejects.toThrow();
    // Not a credential of the API: no prefix, and no kind's audience.
    expect((await whoami(`platapp_${token}`)).body._tag).toBe('PlatformAppTokenInvalidError');
  });
});
