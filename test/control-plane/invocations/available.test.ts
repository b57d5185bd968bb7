/**
 * `GET /client/v1/commands` over real HTTP and Postgres: any member (not only the app's author,
 * who alone reads the manifest through `/v0`) sees the commands and message actions of the apps
 * installed in the workspace, from the version each install runs, and can run what is listed.
 * Suspended and uninstalled apps, apps declaring neither, other workspaces' installs and other
 * members' development apps are absent. No credential or a wrong one: 401 with its tag.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayServer, type RelayServer } from '../../fixtures/invocations/server.ts';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

const OPERATOR_TOKEN = randomBytes(24).toString('base64url');

let stack: Stack;
let relay: RelayServer;
let ws: CreatedWorkspace;
let member: { member: { id: string }; apiKey: string; client: ApiClient };
let appId: string;
let installId: string;
let circleId: string;

function ok<T extends { status: number; body: any }>(res: T, status = 200): T {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
}

/** An app created, synced to production and installed by the owner; answers its ids. */
async function installed(manifest: Record<string, unknown>): Promise<{ appId: string; installId: string; signingSecret: string }> {
  const created = ok(await ws.client.post('/apps', { name: manifest.name, slug: manifest.slug, hosting: 'self', endpoint: manifest.endpoint }), 201);
  const id: string = created.body.app.id;
  ok(await stack.v0(ws.apiKey).put(`/apps/${id}/manifest`, { manifest, target: 'production' }));
  const consent = ok(await ws.client.get(`/apps/${id}/consent`));
  const install = ok(await ws.client.post(`/apps/${id}/installs`, { version: consent.body.consent.version }), 201);
  return { appId: id, installId: install.body.install.id, signingSecret: created.body.signingSecret };
}

const listed = async (client: ApiClient = member.client): Promise<any[]> => ok(await client.get('/commands')).body.items;
const endpoint = (slug: string) => ({ url: `https://${slug}.example.net/platform` });

beforeAll(async () => {
  stack = await startStack({ env: { OPERATOR_TOKEN } });
  relay = await startRelayServer({ now: () => stack.clock.now() });
  ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
  member = await stack.addMember(ws.apiKey, { role: 'member', name: 'Mia Member' });
  circleId = ok(await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true }), 201).body.circle.id;
  const relayApp = { ...relay.app.manifest, endpoint: { url: relay.endpoint } } as unknown as Record<string, unknown>;
  const relayInstall = await installed(relayApp);
  ({ appId, installId } = relayInstall);
  relay.configure({ signingSecret: relayInstall.signingSecret, apiUrl: stack.url });
});
afterAll(async () => {
  await relay?.close();
  await stack?.stop();
});

describe('GET /client/v1/commands', () => {
  it('a member who is not the author sees the installed app\'s commands, options and message actions, and runs one', async () => {
    // The author's tooling read: refused to this member.
    expect((await stack.v0(member.apiKey).get(`/apps/${appId}/manifest`)).status).toBe(404);

    const [relayApp, ...others] = await listed();
    expect(others).toEqual([]);
    expect(relayApp).toMatchObject({ installId, installKind: 'workspace', appId, name: 'Relay', version: 1 });
    const echo = relayApp.commands.find((c: any) => c.name === 'echo');
    expect(echo).toEqual({
      name: 'echo', description: 'Echo the options',
      options: [
        { name: 'text', description: 'Text', type: 'string', required: true, choices: null, objectKind: null },
        { name: 'count', description: 'Count', type: 'integer', required: false, choices: null, objectKind: null },
        { name: 'ratio', description: 'Ratio', type: 'number', required: false, choices: null, objectKind: null },
        { name: 'loud', description: 'Loud', type: 'boolean', required: false, choices: null, objectKind: null },
        { name: 'size', description: 'Size', type: 'choice', required: false, choices: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }], objectKind: null },
        { name: 'who', description: 'Who', type: 'member', required: false, choices: null, objectKind: null },
        { name: 'where', description: 'Where', type: 'circle', required: false, choices: null, objectKind: null },
      ],
    });
    expect(relayApp.commands.map((c: any) => c.name)).toEqual(expect.arrayContaining(['whisper', 'peek', 'board', 'later']));
    expect(relayApp.messageActions).toEqual([
      { id: 'quote', label: 'Quote', icon: null, context: 'message' },
      { id: 'summarize-thread', label: 'Summarize thread', icon: null, context: 'thread' },
      { id: 'summarize', label: 'Summarize', icon: null, context: 'conversation' },
    ]);
    // Only the listed fields: nothing else of the manifest (endpoint, scopes, blocks, config schema).
    expect(Object.keys(relayApp).sort()).toEqual(['appId', 'commands', 'installId', 'installKind', 'messageActions', 'name', 'version']);

    // What is listed runs, with the listed install.
    const ran = ok(await member.client.post('/commands/run', { installId: relayApp.installId, command: 'whisper', options: {}, surface: { kind: 'circle', circleId, conversationId: null } }));
    expect(ran.body.invocation).toMatchObject({ status: 'answered', visibility: 'private', appId });
    // The owner (the author) sees the same list.
    expect(await listed(ws.client)).toEqual(await listed());
  });

  it('lists the version each install runs: a version waiting for approval changes nothing until approved', async () => {
    const manifest = { schemaVersion: 1, name: 'Versioned', slug: 'versioned', hosting: 'self', endpoint: endpoint('versioned'), commands: [{ name: 'one', description: 'First', options: [] }] };
    const app = await installed(manifest);
    const versioned = async () => (await listed()).find((a) => a.appId === app.appId);
    expect(await versioned()).toMatchObject({ version: 1, commands: [{ name: 'one' }] });
    // Version 2 asks for a scope: it waits for an admin, and the install keeps running version 1.
    const widened = { ...manifest, scopes: ['conversations:read'], events: ['post.created'], commands: [...manifest.commands, { name: 'two', description: 'Second', options: [] }] };
    ok(await stack.v0(ws.apiKey).put(`/apps/${app.appId}/manifest`, { manifest: widened, target: 'production' }));
    expect(await versioned()).toMatchObject({ version: 1, commands: [{ name: 'one' }] });
    ok(await ws.client.post(`/installs/${app.installId}/approve`, { version: 2 }));
    expect((await versioned()).commands.map((c: any) => c.name)).toEqual(['one', 'two']);
    expect((await versioned()).version).toBe(2);
  });

  it('suspended and uninstalled apps are absent; a resumed one is back', async () => {
    const app = await installed({ schemaVersion: 1, name: 'Pausable', slug: 'pausable', hosting: 'self', endpoint: endpoint('pausable'), scopes: ['conversations:read'], messageActions: [{ id: 'pin', label: 'Pin' }] });
    const names = async () => (await listed()).map((a) => a.name);
    expect(await names()).toContain('Pausable');
    const operator = stack.client(OPERATOR_TOKEN);
    ok(await operator.post(`/installs/${app.installId}/suspend`));
    expect(await names()).not.toContain('Pausable');
    ok(await operator.post(`/installs/${app.installId}/resume`));
    expect(await names()).toContain('Pausable');
    ok(await ws.client.delete(`/installs/${app.installId}`), 204);
    expect(await names()).not.toContain('Pausable');
  });

  it('apps declaring neither commands nor message actions, and other workspaces\' installs, are absent', async () => {
    await installed({ schemaVersion: 1, name: 'Silent', slug: 'silent', hosting: 'self', endpoint: endpoint('silent') });
    const other = await stack.createWorkspace({ ownerName: 'Otto Other' });
    const created = ok(await other.client.post('/apps', { name: 'Elsewhere', slug: 'elsewhere', hosting: 'self', endpoint: endpoint('elsewhere') }), 201);
    ok(await stack.v0(other.apiKey).put(`/apps/${created.body.app.id}/manifest`, {
      manifest: { schemaVersion: 1, name: 'Elsewhere', slug: 'elsewhere', hosting: 'self', endpoint: endpoint('elsewhere'), commands: [{ name: 'far', description: 'Far', options: [] }] }, target: 'production',
    }));
    const consent = ok(await other.client.get(`/apps/${created.body.app.id}/consent`));
    ok(await other.client.post(`/apps/${created.body.app.id}/installs`, { version: consent.body.consent.version }), 201);

    const names = (await listed()).map((a) => a.name);
    expect(names).not.toContain('Silent');
    expect(names).not.toContain('Elsewhere');
    expect((await listed(other.client)).map((a) => a.name)).toEqual(['Elsewhere']);
  });

  it('a development app\'s dev install is listed to its developer only', async () => {
    const manifest = { schemaVersion: 1, name: 'Draft', slug: 'draft', hosting: 'self', endpoint: endpoint('draft'), commands: [{ name: 'try', description: 'Try it', options: [] }] };
    const synced = ok(await stack.v0(member.apiKey).put('/apps/dev', { manifest }));
    const mine = (await listed()).find((a) => a.appId === synced.body.appId);
    expect(mine).toMatchObject({ installId: synced.body.devInstallId, installKind: 'dev', name: 'Draft', commands: [{ name: 'try' }] });
    expect((await listed(ws.client)).some((a) => a.appId === synced.body.appId)).toBe(false);
    // Nor can another member run it, by install or by app.
    const surface = { kind: 'circle', circleId, conversationId: null };
    for (const by of [{ installId: synced.body.devInstallId }, { appId: synced.body.appId }]) {
      const refused = await ws.client.post('/commands/run', { ...by, command: 'try', options: {}, surface });
      expect(refused.status, JSON.stringify(refused.body)).toBe(404);
      expect(refused.body._tag).toBe('PlatformApiNotFoundError');
    }
  });

  it('no credential: 401 PlatformAppTokenMissingError; a wrong one: 401 PlatformAppTokenInvalidError', async () => {
    const none = await stack.client().get('/commands');
    expect(none.status).toBe(401);
    expect(none.body._tag).toBe('PlatformAppTokenMissingError');
    const wrong = await stack.client('platkey_nothing').get('/commands');
    expect(wrong.status).toBe(401);
    expect(wrong.body._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('is in the OpenAPI document with the member credential and its default errors', async () => {
    const doc = await (await stack.fetch('/client/v1/openapi.json')).json() as any;
    const op = doc.paths['/commands']?.get;
    expect(op).toMatchObject({ operationId: 'listCommands', security: [{ member: [] }] });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401']));
  });
});
