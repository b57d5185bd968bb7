/**
 * Installs and consent: the consent screen's data, installing with an install config (validated
 * with ajv, secret fields sealed and never shown back), a production version that widens access
 * leaving installs on their version with an `app.reconsentRequired` outbox row until an admin
 * approves, non-widening versions moving installs at once, uninstalling, suspending (operator),
 * and the cached schema validators of a version.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { createApp, install, selfManifest, sync } from './helpers.ts';

const OPERATOR_TOKEN = randomBytes(24).toString('base64url');

let stack: Stack;
let developer: CreatedWorkspace;
let customer: CreatedWorkspace;

const installConfig = {
  type: 'object',
  properties: {
    channel: { type: 'string', minLength: 1 },
    apiKey: { type: 'string', writeOnly: true, minLength: 8 },
    limits: { type: 'object', properties: { daily: { type: 'integer', minimum: 1 } } },
  },
  required: ['channel', 'apiKey'],
  additionalProperties: false,
};

beforeAll(async () => {
  stack = await startStack({ env: { OPERATOR_TOKEN } });
  developer = await stack.createWorkspace({ name: 'Developer' });
  customer = await stack.createWorkspace({ name: 'Customer' });
});
afterAll(async () => stack.stop());

async function publishedApp(overrides: Record<string, unknown> = {}) {
  const { app } = await createApp(developer.client);
  const manifest = selfManifest(app.slug, { installConfig, ...overrides });
  const version = await sync(stack, developer.apiKey, app.id, manifest, 'production');
  return { app, manifest, version };
}

const outbox = async (installId: string) =>
  (await stack.db.query<{ type: string; payload: any }>('select type, payload from outbox_events where install_id = $1 order by created_at, id', [installId])).rows;

describe('consent and install', () => {
  it('shows the consent screen: every scope with what it allows, the install form and its secret fields', async () => {
    const { app } = await publishedApp({ scopes: ['blocks:write', 'conversations:read'], events: ['post.created'] });
    const res = await customer.client.get(`/apps/${app.id}/consent`);
    expect(res.status).toBe(200);
    expect(res.body.consent).toMatchObject({
      app: { id: app.id, slug: app.slug, name: 'Polls', hosting: 'self', private: false },
      version: 1,
      currentVersion: null,
      scopes: [
        { scope: 'blocks:write', allows: 'Inserting blocks and changing their state outside an interaction' },
        { scope: 'conversations:read', allows: expect.stringMatching(/^Receiving events about posts/) },
      ],
      access: { events: ['post.created'], egressHosts: [], domains: [], mcpUrl: null },
      added: [],
      installConfig,
      secretFields: ['apiKey'],
    });
  });

  it('installs with a valid config (owners and admins only); secret fields are sealed and never shown back', async () => {
    const { app } = await publishedApp();
    const member = await stack.addMember(customer.apiKey, { role: 'member' });
    const refused = await member.client.post(`/apps/${app.id}/installs`, { version: 1, config: { channel: 'x', apiKey: 'secret-123' } });
    expect(refused.status).toBe(403);

    const installed = await install(customer, app.id, { channel: '#general', apiKey: 'secret-123', limits: { daily: 5 } });
    expect(installed).toMatchObject({
      appId: app.id, workspaceId: customer.workspace.id, kind: 'workspace', version: 1, pendingVersion: null, scopes: ['blocks:write'],
      status: 'active', config: { channel: '#general', limits: { daily: 5 } }, secretsSet: ['apiKey'], installedBy: customer.owner.id,
    });
    expect(JSON.stringify((await customer.client.get(`/installs/${installed.id}`)).body)).not.toContain('secret-123');

    const { rows } = await stack.db.query<{ config_enc: string }>('select config_enc from installs where id = $1', [installed.id]);
    expect(rows[0]!.config_enc).not.toContain('secret-123');
    expect(rows[0]!.config_enc).not.toContain('general');
    const row = (await stack.db.query<{ id: string; config_enc: string }>('select id, config_enc from installs where id = $1', [installed.id])).rows[0]!;
    expect(stack.controlPlane.apps.installConfigFor(row)).toEqual({ channel: '#general', apiKey: 'secret-123', limits: { daily: 5 } });

    expect(await outbox(installed.id)).toEqual([{ type: 'app.installed', payload: { install: { id: installed.id, workspaceId: customer.workspace.id, kind: 'workspace', version: expect.any(Number) } } }]);
    const again = await customer.client.post(`/apps/${app.id}/installs`, { version: 1, config: { channel: 'x', apiKey: 'secret-123' } });
    expect(again.status).toBe(409);
  });

  it('refuses a config that does not match the form (400, one issue per problem, located under config)', async () => {
    const { app } = await publishedApp();
    const res = await customer.client.post(`/apps/${app.id}/installs`, { version: 1, config: { apiKey: 'short', limits: { daily: 0 }, extra: true } });
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    const paths = res.body.issues.map((i: { path: unknown[] }) => i.path);
    expect(paths).toEqual(expect.arrayContaining([['config', 'channel'], ['config', 'apiKey'], ['config', 'limits', 'daily'], ['config']]));
    const none = await customer.client.post(`/apps/${app.id}/installs`, { version: 1 });
    expect(none.status).toBe(400);
    expect((await customer.client.get('/installs')).body.items.filter((i: { appId: string }) => i.appId === app.id)).toEqual([]);
  });

  it('installs only the version the consent screen showed, only published and visible apps', async () => {
    const { app } = await publishedApp();
    await sync(stack, developer.apiKey, app.id, selfManifest(app.slug, { installConfig, name: 'Polls 2' }), 'production');
    const stale = await customer.client.post(`/apps/${app.id}/installs`, { version: 1, config: { channel: 'c', apiKey: 'secret-123' } });
    expect(stale.status).toBe(409);
    expect(stale.body.path).toEqual(['version']);

    const { app: unpublished } = await createApp(developer.client);
    await sync(stack, developer.apiKey, unpublished.id, selfManifest(unpublished.slug), 'preview');
    expect((await customer.client.get(`/apps/${unpublished.id}/consent`)).status).toBe(409);

    const { app: privateApp } = await createApp(developer.client, { private: true });
    await sync(stack, developer.apiKey, privateApp.id, selfManifest(privateApp.slug), 'production');
    expect((await customer.client.get(`/apps/${privateApp.id}/consent`)).status).toBe(404);
    expect((await developer.client.get(`/apps/${privateApp.id}/consent`)).status).toBe(200);
  });
});

describe('new production versions', () => {
  it('move installs at once when they do not widen access', async () => {
    const { app } = await publishedApp();
    const inst = await install(customer, app.id, { channel: 'c', apiKey: 'secret-123' });
    const v2 = await sync(stack, developer.apiKey, app.id, selfManifest(app.slug, { installConfig, name: 'Polls renamed', description: 'New words' }), 'production');
    expect(v2).toMatchObject({ version: 2, added: [] });
    expect((await customer.client.get(`/installs/${inst.id}`)).body.install).toMatchObject({ version: 2, pendingVersion: null });
    // Previews never touch workspace installs.
    await sync(stack, developer.apiKey, app.id, selfManifest(app.slug, { installConfig, scopes: ['blocks:write', 'replies:write'] }), 'preview');
    expect((await customer.client.get(`/installs/${inst.id}`)).body.install).toMatchObject({ version: 2, pendingVersion: null });
    expect((await outbox(inst.id)).map((e) => e.type)).toEqual(['app.installed']);
  });

  it('keep installs on their version when they widen access, record app.reconsentRequired, and move on approval', async () => {
    const { app } = await publishedApp();
    const inst = await install(customer, app.id, { channel: 'c', apiKey: 'secret-123' });
    const widerConfig = { ...installConfig, required: ['channel', 'apiKey', 'team'], properties: { ...installConfig.properties, team: { type: 'string' } } };
    const wider = selfManifest(app.slug, { installConfig: widerConfig, scopes: ['blocks:write', 'replies:write'], egressHosts: [] });
    stack.clock.advance(1000);
    const v2 = await sync(stack, developer.apiKey, app.id, wider, 'production');
    expect(v2.added).toEqual([{ kind: 'scope', detail: 'replies:write' }]);

    const held = (await customer.client.get(`/installs/${inst.id}`)).body.install;
    expect(held).toMatchObject({ version: 1, pendingVersion: 2, scopes: ['blocks:write'] });
    const events = await outbox(inst.id);
    expect(events.map((e) => e.type)).toEqual(['app.installed', 'app.reconsentRequired']);
    expect(events[1]!.payload).toEqual({
      install: { id: inst.id, workspaceId: customer.workspace.id, kind: 'workspace', version: expect.any(Number) },
      currentVersion: 1, pendingVersion: 2, added: [{ kind: 'scope', detail: 'replies:write' }],
    });
    const { rows } = await stack.db.query<{ approved_scopes: string[] }>('select approved_scopes from installs where id = $1', [inst.id]);
    expect(rows[0]!.approved_scopes).toEqual(['blocks:write']);

    const consent = await customer.client.get(`/installs/${inst.id}/consent`);
    expect(consent.body.consent).toMatchObject({ version: 2, currentVersion: 1, added: [{ kind: 'scope', detail: 'replies:write' }] });

    const member = await stack.addMember(customer.apiKey, { role: 'member' });
    expect((await member.client.post(`/installs/${inst.id}/approve`, { version: 2 })).status).toBe(403);
    expect((await customer.client.post(`/installs/${inst.id}/approve`, { version: 3 })).status).toBe(409);
    // The new form requires `team`: approving without it is refused with the issue.
    const incomplete = await customer.client.post(`/installs/${inst.id}/approve`, { version: 2 });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.issues.map((i: { path: unknown[] }) => i.path)).toContainEqual(['config', 'team']);

    // Secret fields left out keep their value.
    const approved = await customer.client.post(`/installs/${inst.id}/approve`, { version: 2, config: { channel: 'c', team: 'core' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.install).toMatchObject({ version: 2, pendingVersion: null, scopes: ['blocks:write', 'replies:write'], config: { channel: 'c', team: 'core' }, secretsSet: ['apiKey'] });
    const row = (await stack.db.query<{ id: string; config_enc: string }>('select id, config_enc from installs where id = $1', [inst.id])).rows[0]!;
    expect(stack.controlPlane.apps.installConfigFor(row)).toEqual({ channel: 'c', team: 'core', apiKey: 'secret-123' });
    expect((await customer.client.post(`/installs/${inst.id}/approve`, { version: 2 })).status).toBe(409);
  });

  it('a later non-widening version settles a pending one', async () => {
    const { app } = await publishedApp();
    const inst = await install(customer, app.id, { channel: 'c', apiKey: 'secret-123' });
    await sync(stack, developer.apiKey, app.id, selfManifest(app.slug, { installConfig, scopes: ['blocks:write', 'memories:write'] }), 'production');
    expect((await customer.client.get(`/installs/${inst.id}`)).body.install.pendingVersion).toBe(2);
    await sync(stack, developer.apiKey, app.id, selfManifest(app.slug, { installConfig, name: 'Back to narrow' }), 'production');
    expect((await customer.client.get(`/installs/${inst.id}`)).body.install).toMatchObject({ version: 3, pendingVersion: null });
  });
});

describe('config, uninstall and suspend', () => {
  it('replaces the config, keeping secret fields that are left out', async () => {
    const { app } = await publishedApp();
    const inst = await install(customer, app.id, { channel: 'c', apiKey: 'secret-123' });
    const res = await customer.client.put(`/installs/${inst.id}/config`, { config: { channel: 'd' } });
    expect(res.status).toBe(200);
    expect(res.body.install).toMatchObject({ config: { channel: 'd' }, secretsSet: ['apiKey'] });
    expect((await customer.client.put(`/installs/${inst.id}/config`, { config: { channel: 'd', apiKey: 'new-secret-456' } })).status).toBe(200);
    const row = (await stack.db.query<{ id: string; config_enc: string }>('select id, config_enc from installs where id = $1', [inst.id])).rows[0]!;
    expect(stack.controlPlane.apps.installConfigFor(row)).toEqual({ channel: 'd', apiKey: 'new-secret-456' });
  });

  it('uninstalls (recording app.uninstalled); the app can be installed again', async () => {
    const { app } = await publishedApp();
    const inst = await install(customer, app.id, { channel: 'c', apiKey: 'secret-123' });
    stack.clock.advance(1000);
    expect((await customer.client.delete(`/installs/${inst.id}`)).status).toBe(204);
    expect((await customer.client.get(`/installs/${inst.id}`)).status).toBe(404);
    expect((await outbox(inst.id)).map((e) => e.type)).toEqual(['app.installed', 'app.uninstalled']);
    const again = await install(customer, app.id, { channel: 'c', apiKey: 'secret-123' });
    expect(again.id).not.toBe(inst.id);
  });

  it('suspends and resumes with the operator token only', async () => {
    const { app } = await publishedApp();
    const inst = await install(customer, app.id, { channel: 'c', apiKey: 'secret-123' });
    expect((await customer.client.post(`/installs/${inst.id}/suspend`)).status).toBe(401);
    const operator = stack.client(OPERATOR_TOKEN);
    const suspended = await operator.post(`/installs/${inst.id}/suspend`);
    expect(suspended.status).toBe(200);
    expect(suspended.body.install.status).toBe('suspended');
    expect((await customer.client.get(`/installs/${inst.id}`)).body.install.status).toBe('suspended');
    expect((await operator.post(`/installs/${inst.id}/resume`)).body.install.status).toBe('active');
    expect((await operator.post('/installs/ins_nothere/suspend')).status).toBe(404);
  });
});

describe('schema validators', () => {
  it('compiles a version\'s schemas once and answers the same validators from the cache', async () => {
    const { app } = await publishedApp();
    const validators = await stack.controlPlane.apps.schemaValidators(app.id, 1);
    expect(await stack.controlPlane.apps.schemaValidators(app.id, 1)).toBe(validators);
    const state = validators.state.get('poll')!;
    expect(state({ votes: 3 })).toBe(true);
    expect(state({ votes: -1 })).toBe(false);
    expect(validators.props.get('poll')!({})).toBe(false);
    expect(validators.args.has('poll/vote')).toBe(false);
    expect(validators.installConfig!({ channel: 'c', apiKey: 'secret-123' })).toBe(true);
    await expect(stack.controlPlane.apps.schemaValidators(app.id, 99)).rejects.toThrow();
  });
});
