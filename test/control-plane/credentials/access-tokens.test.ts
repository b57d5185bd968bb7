/**
 * `POST /v0/apps/installs/{install_id}/access-tokens`: client credentials (HTTP Basic) mint an
 * install token for an install of their own app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashClientSecret } from '../../../control-plane/src/apps/credentials/client-secret.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { basic, seedApp, seedInstall, setInstall, type SeededApp } from './fixtures.ts';

let stack: Stack;
let ws: { id: string };
let owner: { id: string };
let app: SeededApp;
let other: SeededApp;
let installId: string;
let otherInstallId: string;

beforeAll(async () => {
  stack = await startStack();
  ({ workspace: ws, owner } = await stack.createWorkspace());
  app = await seedApp(stack, { workspaceId: ws.id, ownerId: owner.id });
  other = await seedApp(stack, { workspaceId: ws.id, ownerId: owner.id });
  installId = await seedInstall(stack, { appId: app.id, workspaceId: ws.id, scopes: ['replies:write', 'blocks:write'] });
  otherInstallId = await seedInstall(stack, { appId: other.id, workspaceId: ws.id });
});
afterAll(() => stack?.stop());

const mint = (id: string, authorization?: string, body: unknown = {}) =>
  stack.v0().request('POST', `/apps/installs/${id}/access-tokens`, { body, headers: authorization === undefined ? {} : { authorization } });

describe('access tokens', () => {
  it('stores client secrets as the sha256 hex of the secret', () => {
    expect(hashClientSecret('a')).toBe('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  });

  it('mint a one-hour install token with good client credentials', async () => {
    const res = await mint(installId, basic(app.clientId, app.clientSecret));
    expect(res.status).toBe(201);
    expect(res.body.token.startsWith('platapp_')).toBe(true);
    expect(Date.parse(res.body.expiresAt)).toBe(stack.clock.now() + 3_600_000);
    expect(res.body.scopes).toEqual(['replies:write', 'blocks:write']);
    const who = await stack.v0(res.body.token).get('/whoami');
    expect(who.body).toMatchObject({ kind: 'install', installId, appId: app.id, workspaceId: ws.id });
  });

  it('refuses a wrong secret, an unknown client id and a missing header', async () => {
    for (const header of [basic(app.clientId, `${app.clientSecret}x`), basic(app.clientId, other.clientSecret), basic('client_nope', app.clientSecret), basic(app.clientId, '')]) {
      const res = await mint(installId, header);
      expect(res.status).toBe(401);
      expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
    }
    expect((await mint(installId)).body._tag).toBe('PlatformAppTokenMissingError');
  });

  it('accepts only client credentials', async () => {
    const { apiKey } = await stack.createWorkspace();
    const res = await mint(installId, `Bearer ${apiKey}`);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('answers 404 PlatformAppInstallNotFoundError for an install of another app or none', async () => {
    for (const id of [otherInstallId, 'ins_missing']) {
      const res = await mint(id, basic(app.clientId, app.clientSecret));
      expect(res.status).toBe(404);
      expect(res.body._tag).toBe('PlatformAppInstallNotFoundError');
    }
  });

  it('answers 403 PlatformAppInstallRevokedError for a suspended install', async () => {
    const third = await seedApp(stack, { workspaceId: ws.id, ownerId: owner.id });
    const id = await seedInstall(stack, { appId: third.id, workspaceId: ws.id });
    await setInstall(stack, id, { status: 'suspended' });
    const res = await mint(id, basic(third.clientId, third.clientSecret));
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformAppInstallRevokedError');
  });

  it('rejects unknown body fields', async () => {
    const res = await mint(installId, basic(app.clientId, app.clientSecret), { scopes: ['memories:write'] });
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
  });
});
