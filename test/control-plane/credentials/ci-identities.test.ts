/**
 * Trusted CI identities (client API) and the CI token exchange `POST /v0/apps/{app_id}/deploy-tokens`,
 * against a real OIDC issuer on loopback (discovery + JWKS over HTTP, RS256 tokens).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAcceptableIssuerUrl } from '../../../control-plane/src/apps/ci-identities/oidc.ts';
import { subjectMatches } from '../../../control-plane/src/apps/ci-identities/subject-pattern.ts';
import { startOidcIssuer, type OidcIssuer } from '../../helpers/oidc-issuer.ts';
import { startStack, type ApiClient, type Stack } from '../../helpers/stack.ts';
import { seedApp, type SeededApp } from './fixtures.ts';

const SUBJECT = 'repo:acme/polls:ref:refs/heads/main';
const AUDIENCE = 'https://platform.example.com';

let stack: Stack;
let issuer: OidcIssuer;
let stranger: OidcIssuer;
let dev: { client: ApiClient; member: { id: string } };
let admin: ApiClient;
let bystander: ApiClient;
let app: SeededApp;
let previewApp: SeededApp;
let workspaceId: string;

beforeAll(async () => {
  [stack, issuer, stranger] = await Promise.all([startStack(), startOidcIssuer(), startOidcIssuer()]);
  const { workspace, apiKey } = await stack.createWorkspace();
  workspaceId = workspace.id;
  dev = await stack.addMember(apiKey, { role: 'member' });
  admin = (await stack.addMember(apiKey, { role: 'admin' })).client;
  bystander = (await stack.addMember(apiKey, { role: 'member' })).client;
  app = await seedApp(stack, { workspaceId: workspace.id, ownerId: dev.member.id });
  previewApp = await seedApp(stack, { workspaceId: workspace.id, ownerId: dev.member.id });
  const a = await dev.client.post(`/apps/${app.id}/ci-identities`, { issuer: issuer.issuer, audience: AUDIENCE, subjectPattern: 'repo:acme/polls:ref:refs/heads/*' });
  const b = await dev.client.post(`/apps/${previewApp.id}/ci-identities`, { issuer: issuer.issuer, audience: AUDIENCE, subjectPattern: 'repo:acme/polls:*', previewOnly: true });
  if (a.status !== 201 || b.status !== 201) throw new Error(`identities: ${JSON.stringify([a.body, b.body])}`);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), issuer?.stop(), stranger?.stop()]);
});

const identityToken = (claims: Partial<{ sub: string; aud: string; iss: string; exp: number; now: number }> = {}, key?: 'foreign') =>
  issuer.sign({ sub: SUBJECT, aud: AUDIENCE, now: stack.clock.now(), ...claims }, key === undefined ? {} : { key });
const exchange = (appId: string, body: unknown) => stack.v0().post(`/apps/${appId}/deploy-tokens`, body);

describe('subject patterns', () => {
  it.each([
    ['repo:acme/polls:ref:refs/heads/*', SUBJECT, true],
    ['repo:acme/polls:ref:refs/heads/*', 'repo:acme/polls:ref:refs/tags/v1', false],
    ['repo:acme/*', SUBJECT, true],
    ['repo:acme/polls:ref:refs/heads/main', SUBJECT, true],
    ['repo:acme/polls:ref:refs/heads/mai', SUBJECT, false],
    ['repo:acme/polls', SUBJECT, false],
    ['*:refs/heads/main', SUBJECT, true],
    ['repo:*/polls:*/main', SUBJECT, true],
    ['repo:*/polls:*:main', SUBJECT, false],
    ['REPO:acme/*', SUBJECT, false],
    ['a*a*a*a*a*a*a*a*b', 'a'.repeat(200), false],
    ['a*', '', false],
    ['**', '', true],
  ])('%s against %s → %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});

describe('managing CI identities', () => {
  it('lets the app owner and workspace admins list them; anyone else sees no app', async () => {
    const mine = await dev.client.get(`/apps/${app.id}/ci-identities`);
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([expect.objectContaining({ appId: app.id, issuer: issuer.issuer, audience: AUDIENCE, previewOnly: false })]);
    expect((await admin.get(`/apps/${app.id}/ci-identities`)).body.items.length).toBe(1);
    const denied = await bystander.get(`/apps/${app.id}/ci-identities`);
    expect(denied.status).toBe(404);
    expect(denied.body._tag).toBe('PlatformAppNotFoundError');
    expect((await bystander.post(`/apps/${app.id}/ci-identities`, { issuer: issuer.issuer, audience: 'x', subjectPattern: 'y' })).status).toBe(404);
    expect((await dev.client.get('/apps/app_missing/ci-identities')).body._tag).toBe('PlatformAppNotFoundError');
  });

  it('validates what is trusted', async () => {
    for (const body of [
      { issuer: 'not a url', audience: AUDIENCE, subjectPattern: 'repo:*' },
      { issuer: `${issuer.issuer}?x=1`, audience: AUDIENCE, subjectPattern: 'repo:*' },
      { issuer: 'ftp://ci.example.com', audience: AUDIENCE, subjectPattern: 'repo:*' },
      { issuer: issuer.issuer, audience: AUDIENCE, subjectPattern: '**' },
      { issuer: issuer.issuer, audience: '', subjectPattern: 'repo:*' },
      { issuer: issuer.issuer, audience: AUDIENCE, subjectPattern: 'repo:*', extra: true },
    ]) {
      const res = await dev.client.post(`/apps/${app.id}/ci-identities`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
  });

  it('takes https issuers only outside tests (tests run their issuer on loopback http)', () => {
    expect(stack.config.allowHttpOidcIssuers).toBe(true);
    expect(isAcceptableIssuerUrl('https://token.actions.githubusercontent.com', false)).toBe(true);
    expect(isAcceptableIssuerUrl(issuer.issuer, false)).toBe(false);
    expect(isAcceptableIssuerUrl(issuer.issuer, true)).toBe(true);
    expect(isAcceptableIssuerUrl('https://user:pw@ci.example.com', false)).toBe(false);
  });

  it('trusts at most 20 identities per app', async () => {
    const crowded = await seedApp(stack, { workspaceId, ownerId: dev.member.id });
    for (let i = 0; i < 20; i++) {
      const res = await dev.client.post(`/apps/${crowded.id}/ci-identities`, { issuer: issuer.issuer, audience: AUDIENCE, subjectPattern: `repo:acme/app${i}:*` });
      expect(res.status).toBe(201);
    }
    const over = await dev.client.post(`/apps/${crowded.id}/ci-identities`, { issuer: issuer.issuer, audience: AUDIENCE, subjectPattern: 'repo:acme/more:*' });
    expect(over.status).toBe(409);
    expect(over.body._tag).toBe('PlatformApiConflictError');
  });

  it('stops trusting a deleted identity at once', async () => {
    const extra = await seedApp(stack, { workspaceId, ownerId: dev.member.id });
    const created = await admin.post(`/apps/${extra.id}/ci-identities`, { issuer: issuer.issuer, audience: AUDIENCE, subjectPattern: SUBJECT });
    expect(created.status).toBe(201);
    expect((await exchange(extra.id, { identityToken: await identityToken() })).status).toBe(201);
    expect((await dev.client.delete(`/apps/${extra.id}/ci-identities/${created.body.identity.id}`)).status).toBe(204);
    expect((await dev.client.delete(`/apps/${extra.id}/ci-identities/${created.body.identity.id}`)).status).toBe(404);
    expect((await exchange(extra.id, { identityToken: await identityToken() })).body._tag).toBe('PlatformAppTokenInvalidError');
  });
});

describe('the CI token exchange', () => {
  it('answers a preview deploy token for a matching identity token, fetching discovery once', async () => {
    const res = await exchange(app.id, { identityToken: await identityToken() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ appId: app.id, previewOnly: true });
    expect(res.body.token.startsWith('platdep_')).toBe(true);
    expect(Date.parse(res.body.expiresAt)).toBe(Math.floor((stack.clock.now() + 15 * 60_000) / 1000) * 1000);
    expect((await stack.v0(res.body.token).get('/whoami')).body).toEqual({ kind: 'deploy', appId: app.id, previewOnly: true });
    await exchange(app.id, { identityToken: await identityToken() });
    expect(issuer.hits.get('/.well-known/openid-configuration')).toBe(1);
  });

  it('answers a production deploy token when asked and the identity allows it', async () => {
    const res = await exchange(app.id, { identityToken: await identityToken(), target: 'production' });
    expect(res.status).toBe(201);
    expect(res.body.previewOnly).toBe(false);
    expect((await stack.v0(res.body.token).get('/whoami')).body.previewOnly).toBe(false);
  });

  it('refuses production to a preview-only identity with 403 PlatformAppDeployTargetForbiddenError', async () => {
    const res = await exchange(previewApp.id, { identityToken: await identityToken(), target: 'production' });
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformAppDeployTargetForbiddenError');
    expect((await exchange(previewApp.id, { identityToken: await identityToken() })).status).toBe(201);
  });

  it.each([
    ['a wrong audience', () => identityToken({ aud: 'https://elsewhere.example.com' })],
    ['a wrong subject', () => identityToken({ sub: 'repo:acme/polls:ref:refs/tags/v1' })],
    ['another repository', () => identityToken({ sub: 'repo:evil/polls:ref:refs/heads/main' })],
    ['a wrong signature', () => identityToken({}, 'foreign')],
    ['an expired token', () => identityToken({ now: stack.clock.now() - 3_600_000, exp: Math.floor(stack.clock.now() / 1000) - 60 })],
    ['not a JWT', async () => 'not-a-jwt'],
  ])('answers 401 PlatformAppTokenInvalidError for %s', async (_name, make) => {
    const res = await exchange(app.id, { identityToken: await make() });
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('expires with the clock', async () => {
    const token = await identityToken({ exp: Math.floor(stack.clock.now() / 1000) + 60 });
    expect((await exchange(app.id, { identityToken: token })).status).toBe(201);
    stack.clock.advance(120_000);
    expect((await exchange(app.id, { identityToken: token })).body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('never contacts an issuer the app does not trust', async () => {
    const token = await stranger.sign({ sub: SUBJECT, aud: AUDIENCE, now: stack.clock.now() });
    const res = await exchange(app.id, { identityToken: token });
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
    expect(stranger.hits.size).toBe(0);
  });

  it('refuses an identity token of one app for another app', async () => {
    const third = await seedApp(stack, { workspaceId, ownerId: dev.member.id });
    const res = await exchange(third.id, { identityToken: await identityToken() });
    expect(res.body._tag).toBe('PlatformAppTokenInvalidError');
    expect((await exchange('app_missing', { identityToken: await identityToken() })).body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('needs no other credential and rejects unknown fields', async () => {
    const res = await exchange(app.id, { identityToken: await identityToken(), previewOnly: false });
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
  });
});
